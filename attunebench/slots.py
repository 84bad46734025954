"""A priority semaphore: at most ``limit`` calls of a model in flight, the most urgent first.

The runner queues every call of every active unit at once. With a plain FIFO semaphore the
calls of fifty conversations would interleave and all conversations would finish together at
the end of the run; ranking the waiters by (unit, turn, ...) finishes units one after another
instead, so outputs appear steadily, a killed run has little half-done work, and a judge call
(which waits for its draft) is not stuck behind the next units' calls.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

Rank = tuple[int, ...]


class PrioritySlots:
    """Waiters are admitted by ascending rank, ties in arrival order. One event loop only."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self.limit = limit
        self._free = limit
        self._order = itertools.count()
        self._waiters: list[tuple[Rank, int, asyncio.Future[None]]] = []

    @property
    def in_use(self) -> int:
        return self.limit - self._free

    async def acquire(self, rank: Rank = ()) -> None:
        if self._free > 0 and not self._waiters:
            self._free -= 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (rank, next(self._order), future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # the slot was handed over just before the cancel: pass it on
            raise  # a cancelled future still in the heap is skipped by release()

    def release(self) -> None:
        while self._waiters:
            _, _, future = heapq.heappop(self._waiters)
            if not future.done():
                future.set_result(None)  # hand the slot straight to the next waiter
                return
        self._free += 1

    @asynccontextmanager
    async def slot(self, rank: Rank = ()) -> AsyncIterator[None]:
        await self.acquire(rank)
        try:
            yield
        finally:
            self.release()
