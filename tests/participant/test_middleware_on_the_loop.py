"""The participant API runs the middleware's hooks on the event loop, not on a thread each.

Django hands every hook of a ``MiddlewareMixin`` middleware to a thread and back (about 15 per
request with settings.MIDDLEWARE); the participant API's handler calls them inline. What the
middleware does must not change: the same security headers, the same 404 handling."""

from __future__ import annotations

import functools
import time

import pytest

from attune_collect import asgi_handler

pytestmark = pytest.mark.django_db(transaction=True)

SECURITY_HEADERS = ("x-frame-options", "x-content-type-options", "referrer-policy")


@pytest.fixture
def thread_hand_offs(monkeypatch) -> list[str]:
    """Every call handed to the participant API's request-steps thread."""
    calls: list[str] = []
    real_submit = asgi_handler._participant_steps.submit

    def counting_submit(function, *args, **kwargs):
        # asgiref submits partial(thread_handler, loop, exc_info, task_context, context, func)
        wrapped = function.args[-1] if isinstance(function, functools.partial) else function
        wrapped = getattr(wrapped, "func", wrapped)  # the partial that binds the call's arguments
        calls.append(getattr(wrapped, "__qualname__", repr(wrapped)))
        return real_submit(function, *args, **kwargs)

    monkeypatch.setattr(asgi_handler._participant_steps, "submit", counting_submit)
    return calls


# What may still go to the thread: request_started's receivers, and the response's close
# (which sends request_finished). Django's own handler also sends every hook of every
# MiddlewareMixin there: about 15 more per request.
SIGNALS_AND_CLOSE = {"Signal.asend.<locals>.sync_send", "HttpResponseBase.close"}


def wait_for_close(calls: list[str]) -> None:
    """The close runs after the response went out: wait for it (so the counter is shown to
    work), bounded in time."""
    deadline = time.monotonic() + 5
    while "HttpResponseBase.close" not in calls:
        assert time.monotonic() < deadline, f"no close handed off: {calls}"
        time.sleep(0.01)


class TestHandOffs:
    def test_a_request_hands_no_middleware_hook_to_a_thread(
        self, upstream_study, live_participant, thread_hand_offs
    ):
        client = live_participant(upstream_study)
        client.onboard()
        thread_hand_offs.clear()

        assert client.get("session").status == 200

        wait_for_close(thread_hand_offs)
        assert set(thread_hand_offs) <= SIGNALS_AND_CLOSE, thread_hand_offs

    def test_a_chat_stream_hands_no_middleware_hook_to_a_thread(
        self, upstream_study, live_participant, thread_hand_offs
    ):
        client = live_participant(upstream_study)
        client.onboard()
        thread_hand_offs.clear()

        result = client.send("hello")

        assert result.names[-1] == "done"
        wait_for_close(thread_hand_offs)
        assert set(thread_hand_offs) <= SIGNALS_AND_CLOSE, thread_hand_offs


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
