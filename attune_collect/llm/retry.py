"""How long to wait before the next attempt."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter, unless the provider said when to come back.

    The attempt count itself comes from each endpoint's `max_retries`.
    """

    base_delay_s: float = 0.5
    max_delay_s: float = 30.0
    # A Retry-After longer than this is cut short: a participant is waiting on the other end.
    max_retry_after_s: float = 60.0
    # Waits are drawn from [delay * (1 - jitter), delay] so that clients hit by the same
    # outage do not come back in lockstep.
    jitter: float = 0.5

    def backoff(self, failed_attempt: int, rng: random.Random) -> float:
        delay = min(self.max_delay_s, self.base_delay_s * 2 ** (failed_attempt - 1))
        return rng.uniform(delay * (1 - self.jitter), delay)

    def delay(self, failed_attempt: int, retry_after: float | None, rng: random.Random) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_retry_after_s)
        return self.backoff(failed_attempt, rng)
