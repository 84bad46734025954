"""One HTTP request through an ASGI application in process, as a server would send it (tests,
benchmarks/request_whole.py)."""

from __future__ import annotations

import asyncio
from typing import Any


def http_scope(
    method: str, path: str, *, headers: dict[str, str] | None = None, query_string: bytes = b""
) -> dict[str, Any]:
    """The least a server sends for a request."""
    raw_headers = [(b"host", b"127.0.0.1")] + [
        (name.lower().encode("latin1"), value.encode("latin1"))
        for name, value in (headers or {}).items()
    ]
    return {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": query_string,
        "headers": raw_headers,
    }


async def serve(
    application: Any, scope: dict[str, Any], *, body: bytes = b"", client_leaves: bool = False
) -> list[dict[str, Any]]:
    """The messages the application sent; the client then waits for the answer, or leaves at
    once (its next receive is the disconnect). Bounded in time."""
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    stays = asyncio.Event()  # never set: a client that stays sends nothing more
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop()
        if not client_leaves:
            await stays.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async with asyncio.timeout(10):
        await application(scope, receive, send)
    return sent
