"""Server-Sent Events framing for the chat stream.

Each event is ``event: <name>`` plus one ``data:`` line of compact JSON (JSON escapes
newlines, so a reply with line breaks still fits one data line; U+2028 and U+2029, which JSON
may leave raw, are escaped too, as some parsers end a line at them). The app reads the stream with
``fetch()`` (an EventSource cannot send the Authorization header or a POST body).

``SSEResponse`` is a ``StreamingHttpResponse`` (the middleware set its headers as on any
response); the platform's ASGI handler sends its events itself (``sse_send.py``), without
Django's per-chunk layers, and adds the keep-alive comments.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Callable
from typing import Any

import orjson
from django.http import StreamingHttpResponse

_DELTA_HEAD = b"event: delta\ndata: "
# The line and paragraph separators in UTF-8, and their JSON escapes: inside a JSON string an
# escape parses to the same character, and no separator can occur outside one.
_LS, _PS = "\u2028".encode(), "\u2029".encode()


def _separators_escaped(payload: bytes) -> bytes:
    # Two replaces cost about 0.1 µs on a token's event (bytes.replace without a match copies
    # nothing); checking for the separators first would cost as much.
    return payload.replace(_LS, b"\\u2028").replace(_PS, b"\\u2029")


def sse_event(name: str, data: dict[str, Any]) -> bytes:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return b"event: " + name.encode() + b"\ndata: " + _separators_escaped(payload) + b"\n\n"


def delta_event(text: str) -> bytes:
    """The ``delta`` event of one token, byte for byte what ``sse_event("delta", {"text":
    text})`` makes (tests/participant/test_sse_fast_paths.py), at a fifth of its CPU: it is
    sent for every token of every reply."""
    return _DELTA_HEAD + _separators_escaped(orjson.dumps({"text": text})) + b"\n\n"


class SSEResponse(StreamingHttpResponse):
    """A chat stream: its events, and whether they are still the response's content."""

    def __init__(
        self, events: AsyncGenerator[bytes], on_close: Callable[[], object] | None = None
    ) -> None:
        super().__init__(events, content_type="text/event-stream; charset=utf-8")
        self.events = events
        self._on_close = on_close

    def close(self) -> None:
        """Django's close, then ``on_close`` (which also runs if the events never started)."""
        try:
            super().close()
        finally:
            if self._on_close is not None:
                self._on_close()

    @property
    def events_unwrapped(self) -> bool:
        """False if a middleware replaced the content (then Django's own path sends it)."""
        return getattr(self, "_iterator", None) is self.events


def sse_response(
    events: AsyncGenerator[bytes], on_close: Callable[[], object] | None = None
) -> SSEResponse:
    response = SSEResponse(events, on_close)
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx and similar proxies: pass each event on at once
    return response
