"""The participant API's handler leaves out the middleware with nothing to do for it
(``asgi_handler.NOT_FOR_THE_PARTICIPANT_API``: sessions, users, CSRF, messages, static files):
every answer is the same as with the whole of settings.MIDDLEWARE, status, headers and body,
for a participant, for a request without a token, for an unknown path and a wrong method.
In process, through the handler."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings

from annotations.services.participant_sessions import issue_token
from attune_collect import asgi_handler
from attune_collect.asgi_handler import ParticipantAPIHandler
from attune_collect.testing.asgi_calls import http_scope, serve

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def both_chains(monkeypatch) -> tuple[ParticipantAPIHandler, ParticipantAPIHandler]:
    """The participant API's handler, and the same with every middleware of the settings."""
    lean = ParticipantAPIHandler()
    monkeypatch.setattr(asgi_handler, "NOT_FOR_THE_PARTICIPANT_API", frozenset())
    whole = ParticipantAPIHandler()
    return lean, whole


def answer(messages: list[dict[str, Any]]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    start = messages[0]
    body = b"".join(m.get("body", b"") for m in messages[1:])
    return start["status"], sorted(start["headers"]), body


def test_some_middleware_is_left_out():
    assert set(settings.MIDDLEWARE) > asgi_handler.NOT_FOR_THE_PARTICIPANT_API


@pytest.mark.parametrize(
    ("method", "path", "with_token", "status"),
    [
        ("GET", "/api/study/session", True, 200),
        ("GET", "/api/study/session", False, 401),
        ("GET", "/api/study/no-such-endpoint", True, 404),
        ("PUT", "/api/study/session", True, 405),
    ],
)
async def test_the_answer_is_the_same_as_with_every_middleware(
    both_chains, participant, method, path, with_token, status
):
    from asgiref.sync import sync_to_async

    token = await sync_to_async(issue_token)(participant)
    headers = {"Authorization": f"Participant {token}"} if with_token else {}
    lean, whole = both_chains

    answers = [
        answer(await serve(h, http_scope(method, path, headers=headers))) for h in both_chains
    ]

    assert answers[0][0] == status
    assert answers[0] == answers[1]
    if status == 200:
        assert json.loads(answers[0][2])["step"]  # a real session object, not an error
