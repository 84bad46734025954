"""The participant API runs the middleware's hooks on the event loop, not on a thread each.

Django hands every hook of a ``MiddlewareMixin`` middleware to a thread and back (about 15 per
request with settings.MIDDLEWARE); the participant API's handler calls them inline, and the
request signals and the response's close too while their receivers are Django's own: directly,
through no executor at all. What the middleware does must not change: the same security
headers, the same 404 handling."""

from __future__ import annotations

import asyncio
import functools
import threading
import time

import pytest
from django.core.signals import request_started
from django.http import HttpResponseBase

from attune_collect import asgi_handler

pytestmark = pytest.mark.django_db(transaction=True)

SECURITY_HEADERS = ("x-frame-options", "x-content-type-options", "referrer-policy")


def _name(function) -> str:
    # asgiref submits partial(thread_handler, loop, exc_info, task_context, context, func)
    wrapped = function.args[-1] if isinstance(function, functools.partial) else function
    wrapped = getattr(wrapped, "func", wrapped)  # the partial that binds the call's arguments
    return getattr(wrapped, "__qualname__", repr(wrapped))


@pytest.fixture
def hand_offs(monkeypatch) -> dict[str, list[str]]:
    """Every synchronous step of a participant API request: run on the loop, or handed to the
    request-steps thread."""
    calls: dict[str, list[str]] = {"loop": [], "thread": []}
    for where, executor in (
        ("loop", asgi_handler._on_the_loop_steps),
        ("thread", asgi_handler._participant_steps),
    ):
        real_submit = executor.submit

        def counting_submit(function, *args, _where=where, _submit=real_submit, **kwargs):
            calls[_where].append(_name(function))
            return _submit(function, *args, **kwargs)

        monkeypatch.setattr(executor, "submit", counting_submit)
    return calls


# The steps a receiver of unknown cost sends to the thread: request_started's receivers, and
# the response's close (which sends request_finished). Django's own handler also sends every
# hook of every MiddlewareMixin to a thread: about 15 more per request.
SIGNALS_AND_CLOSE = ["Signal.asend.<locals>.sync_send", "HttpResponseBase.close"]


@pytest.fixture
def closes(monkeypatch) -> list[bool]:
    """For each response closed (the step that sends request_finished): whether it ran on an
    event loop's thread."""
    on_a_loop: list[bool] = []
    real_close = HttpResponseBase.close

    @functools.wraps(real_close)  # keeps its name, which the hand-off counter reports
    def recording_close(self) -> None:
        on_a_loop.append(asyncio._get_running_loop() is not None)
        real_close(self)

    monkeypatch.setattr(HttpResponseBase, "close", recording_close)
    return on_a_loop


def wait_for(steps: list, what: object) -> None:
    """The close runs after the response went out: wait for it (so the recorder is shown to
    work), bounded in time."""
    deadline = time.monotonic() + 5
    while what not in steps:
        assert time.monotonic() < deadline, f"no close: {steps}"
        time.sleep(0.01)


def assert_every_step_on_the_loop(hand_offs: dict[str, list[str]], closes: list[bool]) -> None:
    wait_for(closes, True)
    assert all(closes), closes
    assert hand_offs == {"loop": [], "thread": []}  # called directly, through no executor


@pytest.fixture
def onboarded(upstream_study, live_participant, hand_offs, closes):
    """A participant ready to chat, with the steps of onboarding forgotten."""
    client = live_participant(upstream_study)
    client.onboard()
    hand_offs["loop"].clear()
    closes.clear()
    return client


class TestHandOffs:
    def test_a_request_hands_nothing_to_a_thread(self, onboarded, hand_offs, closes):
        assert onboarded.get("session").status == 200

        assert_every_step_on_the_loop(hand_offs, closes)

    def test_a_chat_stream_hands_nothing_to_a_thread(self, onboarded, hand_offs, closes):
        assert onboarded.send("hello").names[-1] == "done"

        assert_every_step_on_the_loop(hand_offs, closes)

    def test_a_receiver_of_unknown_cost_runs_on_the_steps_thread(self, onboarded, hand_offs):
        threads: list[str] = []

        def receiver(**kwargs) -> None:  # might block: it must not run on the loop
            threads.append(threading.current_thread().name)

        request_started.connect(receiver)
        try:
            assert onboarded.get("session").status == 200
            wait_for(hand_offs["thread"], "HttpResponseBase.close")
        finally:
            request_started.disconnect(receiver)

        assert hand_offs["thread"] == SIGNALS_AND_CLOSE
        assert "Signal.asend.<locals>.sync_send" not in hand_offs["loop"]
        assert len(threads) == 1 and threads[0].startswith("attune-request-steps")


class TestMiddlewareStillApplies:
    def test_security_headers_are_set(self, upstream_study, live_participant):
        client = live_participant(upstream_study)
        client.onboard()

        reply = client.get("session")

        headers = {name.lower() for name in reply.headers}
        assert set(SECURITY_HEADERS) <= headers
        assert reply.headers["x-frame-options"] == "DENY"

    def test_an_unknown_path_gets_the_json_404(self, upstream_study, live_participant):
        client = live_participant(upstream_study)
        client.onboard()

        reply = client.get("no-such-endpoint")

        assert reply.status == 404
        assert reply.body is not None and "error" in reply.body
