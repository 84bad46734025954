"""The throttles' count on Redis (attune_collect/rate_window.py): DRF's sliding window, in one
atomic round trip. Against the real Redis the suite runs with (db 15 by default)."""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterator

import pytest
import redis
from django.core.cache import caches
from rest_framework.throttling import SimpleRateThrottle

from annotations.participant_api.throttling import ParticipantRateThrottle
from attune_collect.rate_window import count_in_window

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"


@pytest.fixture
def client() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(REDIS_URL)
    yield client
    client.close()


@pytest.fixture
def key(client: redis.Redis) -> Iterator[str]:
    key = f"attune-test-window-{uuid.uuid4().hex}"
    yield key
    client.delete(key)


def test_admits_the_limit_then_refuses_until_the_oldest_leaves_the_window(client, key):
    counts = [count_in_window(client, key, now, 60, 3) for now in (100.0, 110.0, 120.0, 130.0)]

    assert [(c.admitted, c.count, c.oldest) for c in counts] == [
        (True, 1, 100.0),
        (True, 2, 100.0),
        (True, 3, 100.0),
        (False, 3, 100.0),  # refused, and not counted
    ]
    # DRF's rule: a request exactly one duration older than now has left the window.
    again = count_in_window(client, key, 160.0, 60, 3)
    assert (again.admitted, again.count, again.oldest) == (True, 3, 110.0)
    assert 0 < client.pttl(key) <= 60_000  # the key goes when its window would be empty


def test_requests_at_the_same_moment_count_separately(client, key):
    assert [count_in_window(client, key, 5.0, 60, 10).count for _ in range(3)] == [1, 2, 3]


def test_concurrent_callers_never_share_the_last_place(client, key):
    """Eight threads at once against a limit of five: DRF's read-then-write admits more."""
    start = threading.Barrier(8)
    admitted: list[bool] = []

    def call() -> None:
        start.wait(timeout=10)
        for _ in range(4):
            admitted.append(count_in_window(client, key, 1000.0, 60, 5).admitted)

    threads = [threading.Thread(target=call) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(admitted) == 32
    assert admitted.count(True) == 5


def test_one_round_trip_per_count(client, key, monkeypatch):
    commands: list[str] = []
    execute = client.execute_command

    def counting(*args, **kwargs):
        commands.append(str(args[0]))
        return execute(*args, **kwargs)

    monkeypatch.setattr(client, "execute_command", counting)
    count_in_window(client, key, 1.0, 60, 5)  # the first call may load the script
    commands.clear()
    count_in_window(client, key, 2.0, 60, 5)
    assert commands == ["EVALSHA"]


class _Request:
    def __init__(self, participant_pk: int) -> None:
        self.user = type("Principal", (), {"participant": type("P", (), {"pk": participant_pk})})()
        self.META: dict[str, str] = {}


def test_the_participant_throttle_counts_on_redis_with_drfs_advice(settings, monkeypatch):
    settings.CACHES = {
        "default": {
            "BACKEND": "attune_collect.cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": f"attune-test-{uuid.uuid4().hex[:8]}",
        }
    }
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"participant": "2/min"},
    }
    # DRF's own read and write must not run: the script is the only count.
    monkeypatch.setattr(SimpleRateThrottle, "allow_request", None)
    clock = iter([1000.0, 1010.0, 1030.0])
    throttles = []
    for _ in range(3):
        throttle = ParticipantRateThrottle()
        throttle.timer = lambda: next(clock)  # type: ignore[method-assign]
        throttles.append(throttle)

    assert [t.allow_request(_Request(7), None) for t in throttles] == [True, True, False]
    # DRF's formula: 60 s less the 30 s since the oldest, for the one place that frees up.
    assert throttles[-1].wait() == pytest.approx(30.0)
    assert ParticipantRateThrottle().allow_request(_Request(8), None)  # per participant
    # Its keys (this test's own prefix) expire with their window: no flush of a shared database.
    assert (
        caches["default"]
        .make_and_validate_key("x")
        .startswith(settings.CACHES["default"]["KEY_PREFIX"])
    )
