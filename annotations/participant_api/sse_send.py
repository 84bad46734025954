"""Send a chat stream over ASGI: each event as one body message, and keep-alive comments.

Django's ``ASGIHandler.send_response`` would relay each event through two async generators of
``StreamingHttpResponse`` and a chunking generator; the platform's handler
(``attune_collect/asgi_handler.py``) calls ``send_sse`` instead, which sends the view's events
as they come. The response's status and headers (set by the view and the middleware) are sent
exactly as Django sends them.

The keep-alive (``keepalive.py``) costs nothing per event: the relay notes when it last sent,
and one watchdog task per stream wakes when the interval could have passed since then, sending
``: keep-alive`` only if nothing went out meanwhile. It never touches the pending read of the
model's stream. Sends never overlap: the watchdog sends only while the relay is not sending,
and the relay waits for a keep-alive still being sent before it sends.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import aclosing, suppress
from typing import Any

from django.http import HttpResponseBase

from attune_collect.config import attune_config

from .keepalive import KEEPALIVE_COMMENT
from .sse import SSEResponse

Send = Callable[[dict[str, Any]], Awaitable[None]]


def response_start(response: HttpResponseBase) -> dict[str, Any]:
    """The ``http.response.start`` message, built as Django's ``send_response`` builds it."""
    headers = []
    name: str | bytes
    value: str | bytes
    for name, value in response.items():
        raw_name = name.encode("ascii") if isinstance(name, str) else name
        raw_value = value.encode("latin1") if isinstance(value, str) else value
        headers.append((bytes(raw_name), bytes(raw_value)))
    for cookie in response.cookies.values():
        headers.append((b"Set-Cookie", cookie.OutputString().encode("ascii")))
    return {"type": "http.response.start", "status": response.status_code, "headers": headers}


class _Relay:
    """One stream's sends, shared by the relay loop and its keep-alive watchdog."""

    def __init__(self, send: Send, interval_s: float) -> None:
        self.send = send
        self.interval_s = interval_s
        self.loop = asyncio.get_running_loop()
        self.last_sent = self.loop.time()
        self.sending = False
        self.keepalive_sent: asyncio.Future[None] | None = None  # set while one is being sent

    async def event(self, body: bytes) -> None:
        if self.keepalive_sent is not None:
            await asyncio.shield(self.keepalive_sent)
        self.sending = True
        try:
            await self.send({"type": "http.response.body", "body": body, "more_body": True})
        finally:
            self.sending = False
            self.last_sent = self.loop.time()

    async def watch(self) -> None:
        """Send a comment after every ``interval_s`` with nothing sent (until cancelled)."""
        while True:
            # Until the interval is over since the last send (a whole one while a send waits
            # for the client to read: that send is not silence).
            wait_s = (
                self.interval_s
                if self.sending
                else self.last_sent + self.interval_s - self.loop.time()
            )
            if wait_s > 0:
                await asyncio.sleep(wait_s)
                continue
            self.keepalive_sent = self.loop.create_future()
            try:
                await self.send(
                    {"type": "http.response.body", "body": KEEPALIVE_COMMENT, "more_body": True}
                )
            finally:
                self.keepalive_sent.set_result(None)
                self.keepalive_sent = None
                self.last_sent = self.loop.time()


async def send_sse(response: SSEResponse, send: Send) -> None:
    """Send the response: start, every event, keep-alives while it is silent, the end."""
    await send(response_start(response))
    relay = _Relay(send, attune_config().sse_keepalive_s)
    watchdog = asyncio.create_task(relay.watch())
    try:
        async with aclosing(response.events) as events:
            async for body in events:
                await relay.event(body)
    finally:
        watchdog.cancel()
        with suppress(asyncio.CancelledError):
            await watchdog
    await send({"type": "http.response.body"})
