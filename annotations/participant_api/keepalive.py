"""Keep an open chat stream alive while the model is silent.

A proxy in front of the platform (nginx's default ``proxy_read_timeout`` is 60 s) cuts a
response that sends nothing for too long, and a slow provider may take that long to its first
token. ``with_keepalive`` relays a stream's events and yields ``None`` whenever none came for
``interval_s`` seconds; the view writes an SSE comment then (``: keep-alive``), which every
SSE reader ignores (the participant app's included).

The source is read by a task of its own that hands events over through a queue: waiting on
the queue with a timeout never interrupts the source (cancelling a pending ``anext`` of the
gateway's stream would break the model call). Closing the relay cancels that task, which
closes the source (the gateway then releases the upstream connection).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import suppress

from django.conf import settings

KEEPALIVE_COMMENT = b": keep-alive\n\n"
_END = object()


def keepalive_interval_s() -> float:
    """Seconds of silence before a comment (``ATTUNE_SSE_KEEPALIVE_S``, default 15)."""
    return float(settings.ATTUNE_SSE_KEEPALIVE_S)


async def with_keepalive[T](source: AsyncIterator[T], interval_s: float) -> AsyncIterator[T | None]:
    """The source's events in order, and None after every ``interval_s`` of silence."""
    queue: asyncio.Queue[tuple[object, BaseException | None]] = asyncio.Queue()

    async def pump() -> None:
        try:
            async for event in source:
                queue.put_nowait((event, None))
        except Exception as exc:  # handed to the reader, raised there
            queue.put_nowait((_END, exc))
        else:
            queue.put_nowait((_END, None))

    reader = asyncio.create_task(pump())
    try:
        while True:
            try:
                async with asyncio.timeout(interval_s):
                    event, error = await queue.get()
            except TimeoutError:
                yield None
                continue
            if error is not None:
                raise error
            if event is _END:
                return
            yield event  # type: ignore[misc]
    finally:
        if not reader.done():
            reader.cancel()
        with suppress(asyncio.CancelledError):
            await reader
