"""Clocks for tests of anything that waits: time moves only when the test (or a fake sleep)
moves it, so no test depends on how fast the machine is."""

from __future__ import annotations

import asyncio


class FakeClock:
    """A monotonic clock at ``now``; its ``sleep`` records the wait and advances the clock."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


class FrozenClock(FakeClock):
    """Time stands still while callers wait: every wait is measured from the same instant, as
    when many callers ask for a slot at once."""

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        await asyncio.sleep(0)
