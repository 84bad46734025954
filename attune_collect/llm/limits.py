"""Per-endpoint limits: how many calls may be in flight, and how often a request may start."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import threading
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol

Sleep = Callable[[float], Awaitable[object]]
Clock = Callable[[], float]


class RateLimiter(Protocol):
    """What the gateway needs of a requests-per-minute limiter (this process's, or a shared
    one such as the evaluation app's Redis limiter, which holds across worker machines)."""

    def reserve(self) -> float: ...

    async def acquire(self) -> float: ...


# (endpoint name, requests per minute) -> the limiter for that endpoint.
RateLimiterFactory = Callable[[str, int], RateLimiter]


class RequestRateLimiter:
    """An async token bucket (GCRA form): at most `per_minute` request starts per minute.

    With the default burst of 1 the starts are evenly spaced, 60/per_minute seconds apart, which
    is what providers' per-minute limits tolerate best. Its state is guarded by a thread lock,
    not an asyncio primitive, so one limiter holds across event loops and threads (Celery tasks
    that each call asyncio.run still share the budget).
    """

    def __init__(self, per_minute: int, *, clock: Clock, sleep: Sleep, burst: int = 1) -> None:
        if per_minute <= 0 or burst < 1:
            raise ValueError("per_minute must be positive and burst at least 1")
        self.interval_s = 60.0 / per_minute
        self._burst = burst
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._theoretical_arrival: float | None = None

    def reserve(self) -> float:
        """Book the next start slot; returns how long the caller must wait for it."""
        with self._lock:
            now = self._clock()
            arrival = (
                now if self._theoretical_arrival is None else max(self._theoretical_arrival, now)
            )
            allowed_at = arrival - (self._burst - 1) * self.interval_s
            self._theoretical_arrival = arrival + self.interval_s
            return max(0.0, allowed_at - now)

    async def acquire(self) -> float:
        """Wait for a start slot; returns the seconds waited. A cancelled wait loses its slot."""
        wait = self.reserve()
        if wait > 0:
            await self._sleep(wait)
        return wait


class RateLimiterRegistry:
    """One limiter per endpoint name and rate, created on first use (by ``factory`` when
    given, else an in-process ``RequestRateLimiter``)."""

    def __init__(
        self, *, clock: Clock, sleep: Sleep, factory: RateLimiterFactory | None = None
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self._factory = factory
        self._lock = threading.Lock()
        self._limiters: dict[tuple[str, int], RateLimiter] = {}

    def get(self, endpoint_name: str, per_minute: int) -> RateLimiter:
        key = (endpoint_name, per_minute)
        with self._lock:
            limiter = self._limiters.get(key)
            if limiter is None:
                limiter = (
                    self._factory(endpoint_name, per_minute)
                    if self._factory is not None
                    else RequestRateLimiter(per_minute, clock=self._clock, sleep=self._sleep)
                )
                self._limiters[key] = limiter
            return limiter


class FairSlots:
    """An endpoint's calls in flight, at most ``limit``; waiters are served round-robin by
    their key (the client's address for participant chat), first come first served within a key.

    An asyncio.Semaphore serves its waiters in arrival order: 300 calls queued by one client
    would all go before a participant who came after them. Here a waiter of another key is
    served at the latest after one waiter of each key ahead of it in the rotation, however many
    one key has queued. A released slot goes straight to the next waiter (the count stays),
    so a newcomer cannot take it past the queue.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.in_use = 0
        # key -> its waiters in arrival order; dict order is the rotation (served key to the back)
        self._waiters: dict[object, collections.deque[asyncio.Future[None]]] = {}

    def free(self) -> bool:
        """Whether a call taken now would start without waiting."""
        return self.in_use < self.limit and not self._waiters

    @property
    def waiting(self) -> int:
        return sum(len(queue) for queue in self._waiters.values())

    async def acquire(self, key: object = None) -> None:
        if self.free():
            self.in_use += 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(key, collections.deque()).append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # the slot was handed over just before the cancel: pass it on
            else:
                self._forget(key, waiter)
            raise

    def release(self) -> None:
        while self._waiters:
            key = next(iter(self._waiters))
            queue = self._waiters.pop(key)
            waiter = queue.popleft()
            if queue:
                self._waiters[key] = queue  # to the back of the rotation
            if not waiter.done():
                waiter.set_result(None)
                return
        self.in_use -= 1

    @contextlib.asynccontextmanager
    async def held(self, key: object = None) -> AsyncIterator[None]:
        await self.acquire(key)
        try:
            yield
        finally:
            self.release()

    def _forget(self, key: object, waiter: asyncio.Future[None]) -> None:
        queue = self._waiters.get(key)
        if queue is not None and waiter in queue:
            queue.remove(waiter)
            if not queue:
                del self._waiters[key]


class ConcurrencyLimits:
    """The slots (``FairSlots``) of each endpoint, created lazily for each event loop.

    Futures belong to the loop that made them, and tests, Celery tasks and the command line
    each run their own loops: keying by loop (weakly, so closed loops are forgotten) keeps
    every loop correct. The limit therefore holds per loop, i.e. per process in the web server
    and the CLI.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_loop: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, dict[tuple[str, int], FairSlots]
        ] = weakref.WeakKeyDictionary()

    def slots(self, endpoint_name: str, limit: int) -> FairSlots:
        loop = asyncio.get_running_loop()
        with self._lock:
            per_loop = self._by_loop.setdefault(loop, {})
            key = (endpoint_name, limit)
            slots = per_loop.get(key)
            if slots is None:
                slots = per_loop[key] = FairSlots(limit)
            return slots
