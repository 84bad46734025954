"""A one-line progress bar on stderr: calls done, calls per second, cost so far, time left.

Redrawn at most every ``interval_s`` (a redraw per call would cost more than some calls); on a
stream that is not a terminal it prints a plain line every ``plain_interval_s`` instead, so
logs stay readable.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from attunebench.executor import CallEvent

BAR_WIDTH = 24


def format_duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ProgressBar:
    def __init__(
        self,
        total: int,
        *,
        stream: TextIO | None = None,
        label: str = "calls",
        interval_s: float = 0.2,
        plain_interval_s: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.done = 0
        self.cached = 0
        self.failed = 0
        self.cost_usd = 0.0
        self.label = label
        self._stream = stream if stream is not None else sys.stderr
        self._clock = clock
        self._started = clock()
        self._last_draw = float("-inf")
        self._tty = bool(getattr(self._stream, "isatty", lambda: False)())
        self._interval = interval_s if self._tty else plain_interval_s

    def planned(self, calls: int) -> None:
        self.total = calls

    def on_call(self, event: CallEvent) -> None:
        self.show(
            self.done + 1,
            self.cached + event.cached,
            self.failed + (not event.ok),
            self.cost_usd + event.cost_usd,
        )

    def show(self, done: int, cached: int, failed: int, cost_usd: float) -> None:
        """Set the counts (e.g. summed over worker processes); redraw if it is time."""
        self.done, self.cached, self.failed, self.cost_usd = done, cached, failed, cost_usd
        now = self._clock()
        if now - self._last_draw >= self._interval:
            self._draw(now)

    def line(self, now: float | None = None) -> str:
        now = self._clock() if now is None else now
        elapsed = max(now - self._started, 1e-9)
        total = max(self.total, self.done)  # re-asks can go beyond the plan
        rate = self.done / elapsed
        left = (total - self.done) / rate if rate > 0 else 0.0
        filled = round(BAR_WIDTH * self.done / total) if total else BAR_WIDTH
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        extras = f" ({self.cached} cached)" if self.cached else ""
        extras += f" ({self.failed} failed)" if self.failed else ""
        return (
            f"[{bar}] {self.done}/{total} {self.label}{extras}  {rate:.1f}/s  "
            f"${self.cost_usd:.4f}  {format_duration(elapsed)} elapsed, "
            f"{format_duration(left)} left"
        )

    def close(self) -> None:
        self._draw(self._clock())
        if self._tty:
            self._stream.write("\n")
        self._stream.flush()

    def _draw(self, now: float) -> None:
        self._last_draw = now
        if self._tty:
            self._stream.write("\r" + self.line(now) + "\x1b[K")
        else:
            self._stream.write(self.line(now) + "\n")
        self._stream.flush()
