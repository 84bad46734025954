"""The evaluation app's settings: thin accessors over the platform's configuration.

The values, their defaults and their variables (``ATTUNE_EVALUATIONS_DIR``,
``ATTUNE_EVALUATION_UNIT_LEASE_S``, ``ATTUNE_EVALUATION_UNIT_MAX_FAILURES``,
``ATTUNE_EVALUATION_REDIS_PREFIX``, ``ATTUNE_EVALUATION_QUEUE``, ...) live in
``attune_collect/config.py``. Read at call time, so a test's override applies.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from attune_collect.config import attune_config

SQLITE_CACHE_NAME = "call_cache.sqlite3"


def evaluations_dir() -> Path:
    return attune_config().evaluations_dir


def unit_lease_s() -> float:
    return attune_config().evaluation_unit_lease_s


def unclaimed_requeue_s() -> float:
    return attune_config().unclaimed_requeue_s


def heartbeat_interval_s() -> float:
    """Progress and lease renewal: often enough that a lease never lapses under a live worker."""
    return max(0.2, min(2.0, unit_lease_s() / 4))


def unit_max_failures() -> int:
    return attune_config().evaluation_unit_max_failures


def redis_url() -> str | None:
    # A Django setting (the cache and the broker use it too), always defined by settings.py.
    url: str | None = settings.REDIS_URL
    return url or None


def redis_prefix() -> str:
    return attune_config().evaluation_redis_prefix


def task_queue() -> str | None:
    return attune_config().evaluation_queue
