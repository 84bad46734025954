"""A participant API request runs its synchronous steps (request signals, middleware hooks, the
response's close) on the one long-lived request-steps thread (``attune_collect/asgi_handler.py``),
through Django's own handler: the middleware still applies as on any request."""

from __future__ import annotations

import threading

import pytest
from django.core.signals import request_started

pytestmark = pytest.mark.django_db(transaction=True)

SECURITY_HEADERS = ("x-frame-options", "x-content-type-options", "referrer-policy")


def test_a_request_signal_runs_on_the_request_steps_thread(upstream_study, live_participant):
    client = live_participant(upstream_study)
    client.onboard()
    threads: list[str] = []

    def receiver(**kwargs) -> None:
        threads.append(threading.current_thread().name)

    request_started.connect(receiver)
    try:
        assert client.get("session").status == 200
        assert client.get("session").status == 200
    finally:
        request_started.disconnect(receiver)

    assert len(threads) == 2
    assert all(name.startswith("attune-request-steps") for name in threads), threads


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
