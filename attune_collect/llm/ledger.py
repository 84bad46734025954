"""Token and cost accounting per endpoint, shared by every call the gateway makes."""

from __future__ import annotations

import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class EndpointUsage:
    """Totals for one endpoint name.

    `calls` counts gateway calls (each may make several `attempts`); `abandoned` counts streams
    the caller stopped reading (e.g. a participant closed the page), which are not failures.
    """

    calls: int = 0
    failures: int = 0
    abandoned: int = 0
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    def __add__(self, other: EndpointUsage) -> EndpointUsage:
        return EndpointUsage(
            calls=self.calls + other.calls,
            failures=self.failures + other.failures,
            abandoned=self.abandoned + other.abandoned,
            attempts=self.attempts + other.attempts,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
        )


class UsageLedger:
    """Thread-safe running totals: the benchmark runs calls from several threads and loops."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_endpoint: dict[str, EndpointUsage] = {}

    def record_success(
        self,
        endpoint: str,
        *,
        attempts: int,
        prompt_tokens: int,
        completion_tokens: int,
        cost_usd: float,
    ) -> None:
        self._add(
            endpoint,
            EndpointUsage(
                calls=1,
                attempts=attempts,
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
                cost_usd=cost_usd,
            ),
        )

    def record_failure(self, endpoint: str, *, attempts: int) -> None:
        self._add(endpoint, EndpointUsage(calls=1, failures=1, attempts=attempts))

    def record_abandoned(self, endpoint: str, *, attempts: int) -> None:
        self._add(endpoint, EndpointUsage(calls=1, abandoned=1, attempts=attempts))

    def usage(self, endpoint: str) -> EndpointUsage:
        with self._lock:
            return self._by_endpoint.get(endpoint, EndpointUsage())

    def snapshot(self) -> dict[str, EndpointUsage]:
        with self._lock:
            return dict(self._by_endpoint)

    def total(self) -> EndpointUsage:
        return sum(self.snapshot().values(), EndpointUsage())

    def reset(self) -> None:
        with self._lock:
            self._by_endpoint.clear()

    def _add(self, endpoint: str, delta: EndpointUsage) -> None:
        with self._lock:
            self._by_endpoint[endpoint] = self._by_endpoint.get(endpoint, EndpointUsage()) + delta


__all__ = ["EndpointUsage", "UsageLedger"]
