"""A stream's idle timeout with one loop timer per stream, not one per piece.

A streamed reply may run long but never go silent long: each wait for its next piece may last
at most the endpoint's timeout. ``asyncio.timeout`` around every wait arms and cancels a loop
timer per piece: about 60 per chat reply, for each of hundreds of open streams (2 to 3 % of the
web process's samples in a profile at 200 streams, docs/benchmarks.md). ``IdleTimeout`` keeps one
timer that re-arms itself only when it fires: while no wait is in progress (the caller is busy
with the last piece: that time is not the upstream's silence), or when the wait in progress
started after the timer was set. A wait that outlasts the timeout raises ``TimeoutError``, as
``asyncio.timeout`` does, and a cancel from elsewhere stays a cancel.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from types import TracebackType

# Loops run a timer a little early (within their clock's resolution, about 1 ms): a wait that
# far from its deadline when the timer fires counts as expired rather than arming another timer.
_EARLY_S = 0.002


class IdleTimeout:
    """``with IdleTimeout(seconds) as idle: piece = await idle.next(pieces)``, in one task."""

    def __init__(self, seconds: float) -> None:
        self._seconds = seconds
        self._loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("IdleTimeout must be used inside a task")
        self._task = task
        self._cancelling = 0
        self._waiting_since: float | None = None
        self._expired = False
        self._timer: asyncio.TimerHandle | None = None

    def __enter__(self) -> IdleTimeout:
        self._cancelling = self._task.cancelling()
        self._timer = self._loop.call_at(self._loop.time() + self._seconds, self._check)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def next[T](self, pieces: AsyncIterator[T]) -> T:
        """The next piece; ``TimeoutError`` if it takes longer than the timeout."""
        self._waiting_since = self._loop.time()
        try:
            return await anext(pieces)
        except asyncio.CancelledError:
            # Ours only if this timeout cancelled the task and nothing else did meanwhile.
            if self._expired and self._task.uncancel() <= self._cancelling:
                raise TimeoutError(f"no piece within {self._seconds:g} s") from None
            raise
        finally:
            self._waiting_since = None

    def _check(self) -> None:
        self._timer = None
        if self._task.done():  # a stream left unclosed: nothing left to time
            return
        now = self._loop.time()
        since = self._waiting_since
        deadline = now + self._seconds if since is None else since + self._seconds
        if since is not None and now >= deadline - _EARLY_S:
            self._expired = True
            self._task.cancel()
            return
        self._timer = self._loop.call_at(deadline, self._check)
