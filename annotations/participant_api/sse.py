"""Server-Sent Events framing for the chat stream.

Each event is ``event: <name>`` plus one ``data:`` line of compact JSON (JSON escapes
newlines, so a reply with line breaks still fits one data line). The app reads the stream with
``fetch()`` (an EventSource cannot send the Authorization header or a POST body).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from django.http import StreamingHttpResponse


def sse_event(name: str, data: dict[str, Any]) -> bytes:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {name}\ndata: {payload}\n\n".encode()


def sse_response(events: AsyncIterator[bytes]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(events, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx and similar proxies: pass each event on at once
    return response
