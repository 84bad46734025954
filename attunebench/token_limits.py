"""A tokens-per-minute limit per model (the gateway paces requests per minute, not tokens).

Providers count the tokens of a request when it starts, before anyone knows the answer's
length, so a call books an estimate (prompt characters / 4 + the expected completion) and
settles it with the real usage when the answer arrives. The budget is a rolling 60-second
window: a call may start when the tokens booked in the last minute plus its own estimate fit.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

WINDOW_S = 60.0
CHARS_PER_TOKEN = 4  # the usual English average; only an estimate is needed
DEFAULT_COMPLETION_TOKENS = 400  # our JSON answers are short


@dataclass
class Booking:
    at: float
    tokens: int


def estimate_tokens(messages: Sequence[Mapping[str, Any]], max_tokens: Any = None) -> int:
    prompt = sum(len(str(message.get("content", ""))) for message in messages) // CHARS_PER_TOKEN
    completion = max_tokens if isinstance(max_tokens, int) and max_tokens > 0 else None
    return prompt + (completion or DEFAULT_COMPLETION_TOKENS)


class TokenRateLimiter:
    """At most ``per_minute`` tokens booked in any rolling minute.

    A single call larger than the whole budget still runs, alone, once the window is empty
    (refusing it forever would hang the run). State sits behind a thread lock, so one limiter
    can serve several event loops in one process.
    """

    def __init__(
        self,
        per_minute: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        if per_minute <= 0:
            raise ValueError("per_minute must be positive")
        self.per_minute = per_minute
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._bookings: deque[Booking] = deque()

    def booked(self) -> int:
        with self._lock:
            self._forget_old(self._clock())
            return sum(booking.tokens for booking in self._bookings)

    async def acquire(self, tokens: int) -> Booking:
        while True:
            wait = self._try_book(tokens)
            if isinstance(wait, Booking):
                return wait
            await self._sleep(wait)

    def settle(self, booking: Booking, actual_tokens: int) -> None:
        """Replace the estimate by the tokens the provider reported."""
        if actual_tokens > 0:
            with self._lock:
                booking.tokens = actual_tokens

    def _try_book(self, tokens: int) -> Booking | float:
        with self._lock:
            now = self._clock()
            self._forget_old(now)
            used = sum(booking.tokens for booking in self._bookings)
            if not self._bookings or used + tokens <= self.per_minute:
                booking = Booking(now, tokens)
                self._bookings.append(booking)
                return booking
            # Wait until the oldest booking leaves the window, then look again.
            return max(0.001, self._bookings[0].at + WINDOW_S - now)

    def _forget_old(self, now: float) -> None:
        while self._bookings and self._bookings[0].at + WINDOW_S <= now:
            self._bookings.popleft()
