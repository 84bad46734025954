"""A participant whose connection drops mid-reply (a phone switching apps) finds a failed,
retryable turn with their message kept; the model call upstream is released."""

import time

import httpx
import pytest

from annotations.models import Turn, TurnStatus

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_dropped_connection_leaves_a_retryable_turn(
    upstream_study, live_participant, openai_server, asgi_server
):
    openai_server.behaviour.token_delay_s = 0.2
    client = live_participant(upstream_study)
    client.onboard()
    body = {"text": "Are you there?", "idempotency_key": "key-disconnect-1"}
    with (
        httpx.Client(base_url=asgi_server, timeout=10) as http,
        http.stream("POST", "/api/study/messages", json=body, headers=client.headers) as response,
    ):
        for line in response.iter_lines():
            if line.startswith("event: delta"):
                break  # the first token arrived: leave now

    deadline = time.monotonic() + 10
    turn = Turn.objects.get()
    while turn.status == TurnStatus.STREAMING and time.monotonic() < deadline:
        time.sleep(0.05)
        turn.refresh_from_db()
    assert turn.status == TurnStatus.FAILED
    assert "connection closed" in turn.error
    assert turn.user_message == "Are you there?"
    deadline = time.monotonic() + 5
    while openai_server.behaviour.in_flight and time.monotonic() < deadline:
        time.sleep(0.05)
    assert openai_server.behaviour.in_flight == 0  # the upstream stream was closed too

    openai_server.behaviour.token_delay_s = 0
    assert client.retry(1).names[-1] == "done"
