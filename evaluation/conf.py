"""The evaluation app's settings, with their defaults (a deployment may set any of them).

Read at call time, not import time, so tests (``settings`` fixture) and worker processes started
with another settings module see their own values.

``ATTUNE_EVALUATIONS_DIR``               report folders (``<dir>/<run id>/``) and, without Redis,
                                         the SQLite call cache shared by the machine's workers.
``ATTUNE_EVALUATION_UNIT_LEASE_S``       how long a unit's claim holds without a heartbeat; after
                                         it another worker may take the unit over (120 s).
``ATTUNE_EVALUATION_UNIT_MAX_FAILURES``  failed attempts (errors, failed calls, lost workers)
                                         before a unit counts as failed (3).
``ATTUNE_EVALUATION_REDIS_PREFIX``       key prefix of the shared call cache and rate limits.
``ATTUNE_EVALUATION_QUEUE``              Celery queue of evaluation tasks (None: the default),
                                         e.g. to give evaluations their own workers.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

SQLITE_CACHE_NAME = "call_cache.sqlite3"


def evaluations_dir() -> Path:
    return Path(settings.ATTUNE_EVALUATIONS_DIR)


def unit_lease_s() -> float:
    return float(getattr(settings, "ATTUNE_EVALUATION_UNIT_LEASE_S", 120.0))


def unclaimed_requeue_s() -> float:
    return float(getattr(settings, "ATTUNE_UNCLAIMED_REQUEUE_S", 120.0))


def release_build_lease_s() -> float:
    return float(getattr(settings, "ATTUNE_RELEASE_BUILD_LEASE_S", 300.0))


def heartbeat_interval_s() -> float:
    """Progress and lease renewal: often enough that a lease never lapses under a live worker."""
    return max(0.2, min(2.0, unit_lease_s() / 4))


def unit_max_failures() -> int:
    return int(getattr(settings, "ATTUNE_EVALUATION_UNIT_MAX_FAILURES", 3))


def redis_url() -> str | None:
    return getattr(settings, "REDIS_URL", None) or None


def redis_prefix() -> str:
    return str(getattr(settings, "ATTUNE_EVALUATION_REDIS_PREFIX", "attune:evaluation:"))


def task_queue() -> str | None:
    return getattr(settings, "ATTUNE_EVALUATION_QUEUE", None) or None
