"""Run one unit's engine coroutine while the calling thread keeps the database up to date.

The engine is async (``asyncio.run`` in a helper thread); Django's ORM is sync and refuses to
run inside an event loop. So the caller's thread does every database write: every ``interval``
seconds it calls ``beat()`` (progress counters, lease renewal), and when ``beat`` says the unit
should stop (run cancelled, claim lost) the coroutine is cancelled from outside.

A long synchronous step (a run's report) is the other way round: it runs on the caller's
thread, and ``beating`` renews its lease from a helper thread.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from attune_collect.config import attune_config
from attunebench.executor import CallEvent

logger = logging.getLogger(__name__)


def heartbeat_interval_s() -> float:
    """How often a unit's or a finalizer's lease is renewed: a quarter of the lease
    (``ATTUNE_EVALUATION_UNIT_LEASE_S``), from 0.2 to 2 s, so it never lapses under a live
    worker."""
    return max(0.2, min(2.0, attune_config().evaluation_unit_lease_s / 4))


class Interrupted(Exception):
    """``beat`` asked to stop and the coroutine was cancelled."""


def run_with_heartbeat[T](
    make: Callable[[], Coroutine[Any, Any, T]],
    *,
    beat: Callable[[], bool],
    interval: float,
) -> T:
    handle: dict[str, Any] = {}

    async def main() -> T:
        handle["loop"], handle["task"] = asyncio.get_running_loop(), asyncio.current_task()
        return await make()

    cancelled = False
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="evaluation-unit") as pool:
        future = pool.submit(asyncio.run, main())
        while True:
            try:
                return future.result(timeout=interval)
            except TimeoutError:
                if not cancelled and not _beat(beat) and "task" in handle:
                    handle["loop"].call_soon_threadsafe(handle["task"].cancel)
                    cancelled = True
            except asyncio.CancelledError:
                if cancelled:
                    raise Interrupted from None
                raise


@contextmanager
def beating(beat: Callable[[], object], *, interval: float) -> Iterator[None]:
    """Call ``beat`` every ``interval`` seconds in a helper thread while the body runs: the
    lease of a long synchronous step (the report of a run), which cannot beat by itself."""
    stop = threading.Event()

    def loop() -> None:
        try:
            while not stop.wait(interval):
                _beat(beat)
        finally:
            connection.close()  # the thread's own connection

    thread = threading.Thread(target=loop, name="evaluation-lease", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _beat(beat: Callable[[], object]) -> object:
    try:
        return beat()
    except Exception:  # a database hiccup must not abandon a unit that is making progress
        logger.warning("evaluation heartbeat failed; the unit goes on", exc_info=True)
        return True


@dataclass
class CallCounts:
    made: int = 0
    cached: int = 0
    errors: int = 0
    cost_usd: float = 0.0

    def __bool__(self) -> bool:
        return bool(self.made or self.cached or self.errors or self.cost_usd)


@dataclass
class CallTally:
    """The executor's ``on_call``: counts calls in the engine thread, drained by the caller's."""

    total: CallCounts = field(default_factory=CallCounts)
    _pending: CallCounts = field(default_factory=CallCounts)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def on_call(self, event: CallEvent) -> None:
        with self._lock:
            for counts in (self.total, self._pending):
                if not event.ok:
                    counts.errors += 1
                elif event.cached:
                    counts.cached += 1
                else:
                    counts.made += 1
                counts.cost_usd += event.cost_usd

    def drain(self) -> CallCounts:
        """What was counted since the last drain."""
        with self._lock:
            pending, self._pending = self._pending, CallCounts()
            return pending
