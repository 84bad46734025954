"""A chat stream that sends nothing sends an SSE comment at every keep-alive interval (15 s
by default, lowered here), so a proxy's read timeout never cuts a slow first token; the reply
then streams and is stored as usual."""

import uuid
from dataclasses import replace

import httpx
import pytest

from annotations.models import Turn, TurnStatus

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_slow_first_token_is_preceded_by_keepalive_comments(
    live_participant, upstream_study, openai_server, asgi_server, settings
):
    settings.ATTUNE = replace(settings.ATTUNE, sse_keepalive_s=0.1)
    openai_server.behaviour.latency_s = 0.6  # the model says nothing for 0.6 s
    client = live_participant(upstream_study)
    client.onboard()

    body = {"text": "Are you there?", "idempotency_key": uuid.uuid4().hex}
    with (
        httpx.Client(base_url=asgi_server, timeout=10) as http,
        http.stream("POST", "/api/study/messages", json=body, headers=client.headers) as response,
    ):
        lines = list(response.iter_lines())

    first_delta = lines.index("event: delta")
    last_delta = len(lines) - 1 - lines[::-1].index("event: delta")
    before, tokens, after = lines[:first_delta], lines[first_delta:last_delta], lines[last_delta:]
    assert before.count(": keep-alive") >= 3
    assert ": keep-alive" not in tokens  # tokens flowed at once after the first
    # (one may come while the reply is stored, if that outlasts the interval: 0.1 s here)
    assert "event: done" in after
    turn = Turn.objects.get()
    assert turn.status == TurnStatus.DONE and turn.model_reply.startswith("Test server reply")


def test_the_default_interval_is_15_seconds():
    from attune_collect.config import attune_config

    assert attune_config().sse_keepalive_s == 15.0
