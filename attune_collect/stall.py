"""What the command-line waiters (``evaluate``, ``build_release``) use to say that the work they
wait for has stopped moving, instead of waiting silently: a killed worker's work comes back by
itself (the workers' sweep), but the person at the terminal should know why nothing happens."""

from __future__ import annotations

import time
from collections.abc import Hashable


class StallWatch:
    """Reports, at most once per ``after_s``, that ``progress`` has not changed for that long."""

    def __init__(self, after_s: float, clock=time.monotonic) -> None:
        self.after_s = after_s
        self.clock = clock
        self.progress: Hashable = None
        self.since = clock()
        self.reported_at: float | None = None

    def stalled_for(self, progress: Hashable) -> float | None:
        """Seconds without progress when a report is due, else None."""
        now = self.clock()
        if progress != self.progress:
            self.progress, self.since, self.reported_at = progress, now, None
            return None
        quiet = now - self.since
        due = self.reported_at is None or now - self.reported_at >= self.after_s
        if quiet >= self.after_s and due:
            self.reported_at = now
            return quiet
        return None
