"""The participant API's handler sends the request signals itself, on the loop, while every
receiver connected is loop-safe: ``request_started`` once before the view, ``request_finished``
once after the response went out (through the response's close), and still once when Django
refuses the request before any view (400) or the client goes away before the answer. With a
receiver of unknown cost connected, Django's own handler runs (test_middleware_on_the_loop.py).
In process, through the platform's ASGI application."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.core.signals import request_finished, request_started

from attune_collect import asgi_handler
from attune_collect.asgi_handler import AttuneASGIHandler
from attune_collect.testing.asgi_calls import http_scope, serve


@pytest.fixture
def signals_sent(monkeypatch) -> list[tuple[str, bool]]:
    """Each request signal sent: its name, and whether it was sent on an event loop's thread.
    The recording receiver counts as loop-safe, as Django's own receivers do."""
    sent: list[tuple[str, bool]] = []

    def recorder(name: str):
        def receiver(**kwargs: Any) -> None:
            sent.append((name, asyncio._get_running_loop() is not None))

        return receiver

    started, finished = recorder("started"), recorder("finished")
    monkeypatch.setattr(
        asgi_handler,
        "LOOP_SAFE_RECEIVERS",
        asgi_handler.LOOP_SAFE_RECEIVERS | {started, finished},
    )
    request_started.connect(started)
    request_finished.connect(finished)
    yield sent
    request_started.disconnect(started)
    request_finished.disconnect(finished)


def session_request(query_string: bytes = b"") -> dict[str, Any]:
    return http_scope("GET", "/api/study/session", query_string=query_string)


@pytest.mark.django_db(transaction=True)
async def test_each_signal_once_on_the_loop_around_an_answered_request(signals_sent):
    sent = await serve(AttuneASGIHandler(), session_request())

    assert sent[0]["status"] == 401  # no token: the view answered
    assert signals_sent == [("started", True), ("finished", True)]


async def test_a_request_django_refuses_before_any_view_sends_both(signals_sent):
    sent = await serve(AttuneASGIHandler(), session_request(query_string=b"a=\xff"))  # not UTF-8

    assert sent[0]["status"] == 400
    assert signals_sent == [("started", True), ("finished", True)]


async def test_a_client_that_leaves_before_the_answer_still_finishes_the_request(
    signals_sent, monkeypatch
):
    application = AttuneASGIHandler()
    view_cancelled = asyncio.Event()

    async def never_answers(request: Any) -> Any:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            view_cancelled.set()
            raise

    monkeypatch.setattr(application.participant_api, "run_get_response", never_answers)

    sent = await serve(application, session_request(), client_leaves=True)

    assert sent == []  # nothing was answered
    assert view_cancelled.is_set()
    assert signals_sent == [("started", True), ("finished", True)]
