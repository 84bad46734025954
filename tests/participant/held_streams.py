"""Streams held open at the local test server (``Behaviour.hold``), for the tests of the stream
limits: a stream read in a thread, and a wait for a state rather than a guess of a duration."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import httpx

from tests.participant.client import ParticipantClient, StreamResult, parse_sse

WAIT_S = 30.0


def wait_until(condition: Callable[[], bool], what: str, timeout_s: float = WAIT_S) -> None:
    """Wait for a state another thread brings about (polled: it has no event of its own)."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.005)


class StreamInThread:
    """``client.send(text)`` in a thread; ``result`` once it ended."""

    def __init__(self, client: ParticipantClient, text: str) -> None:
        self.result: StreamResult | None = None
        self.thread = threading.Thread(target=self._run, args=(client, text), daemon=True)
        self.thread.start()

    def _run(self, client: ParticipantClient, text: str) -> None:
        self.result = client.send(text)

    def join(self) -> StreamResult:
        self.thread.join(timeout=WAIT_S)
        assert self.result is not None, "the stream did not end"
        return self.result


class EventsAsTheyCome:
    """A stream read event by event in a thread, noting when each event arrived."""

    def __init__(self, base_url: str, client: ParticipantClient, text: str) -> None:
        self.events: list[tuple[str, float]] = []
        self.status: int | None = None
        self._url = base_url
        self._headers = client.headers
        self._text = text
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        body = {"text": self._text, "idempotency_key": f"k-{id(self):x}-{time.monotonic_ns()}"}
        path = "/api/study/messages"
        with (
            httpx.Client(base_url=self._url, timeout=WAIT_S) as http,
            http.stream("POST", path, json=body, headers=self._headers) as response,
        ):
            self.status = response.status_code
            block: list[str] = []
            for line in response.iter_lines():
                block.append(line)
                if line == "":
                    for name, _ in parse_sse(iter(block)):
                        self.events.append((name, time.monotonic()))
                    block = []

    def seen(self, name: str) -> float | None:
        return next((at for event, at in self.events if event == name), None)

    def join(self) -> None:
        self.thread.join(timeout=WAIT_S)
        assert not self.thread.is_alive(), "the stream did not end"


__all__ = ["EventsAsTheyCome", "StreamInThread", "wait_until", "StreamResult"]
