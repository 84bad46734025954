"""A barrier for release builds in the worker processes of end-to-end tests.

Installed as an app by ``tests/evaluation/worker_settings.py`` when the test sets
``ATTUNE_TEST_BUILD_HOLD`` (a Redis key prefix of its own). The first build whose
``build_chunk_written`` (``annotations/releases/signals.py``) reports at least
``ATTUNE_TEST_BUILD_HOLD_AT`` conversations written stops there, says so in Redis
(``held_key``), and waits until the test pushes to ``go_key`` (or the worker is killed). Later
builds, such as the one a rescuing worker makes of the same release, pass.

While it waits, the held build keeps its claim alive as a build between two chunks does, by
renewing its lease: the hold may last longer than the lease (seconds, in these tests), and a
lapsed lease would have the worker's own sweep send the build again before the test kills it.
Once the worker is killed nobody renews it, exactly as after a real kill.
"""

from __future__ import annotations

import os
import time
from datetime import timedelta

import redis
from django.apps import AppConfig
from django.utils import timezone

HOLD_ENV = "ATTUNE_TEST_BUILD_HOLD"
HOLD_AT_ENV = "ATTUNE_TEST_BUILD_HOLD_AT"
# A held build gives up waiting after this long (the test has failed by then) and goes on.
HOLD_LIMIT_S = 300.0
# How often a held build renews its lease (well inside the shortest lease the tests use, 3 s).
RENEW_EVERY_S = 1


def held_key(prefix: str) -> str:
    """Set by the held build to ``<release id>:<attempt>:<conversations written>``."""
    return f"{prefix}held"


def go_key(prefix: str) -> str:
    """A list the test pushes to, to let the held build go on."""
    return f"{prefix}go"


def hold_build(sender, *, release, done: int, **_kwargs) -> None:
    prefix = os.environ.get(HOLD_ENV)
    if not prefix or done < int(os.environ.get(HOLD_AT_ENV, "1")):
        return
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        # NX: only the first build to get here is held; every later one (the rescuer's) passes.
        if not client.set(held_key(prefix), f"{release.pk}:{release.attempts}:{done}", nx=True):
            return
        deadline = time.monotonic() + HOLD_LIMIT_S
        while time.monotonic() < deadline:
            if client.blpop([go_key(prefix)], timeout=RENEW_EVERY_S) is not None:
                return
            if not _renew_lease(release):
                return  # the claim is gone: the build's next renewal says so
    finally:
        client.close()


def _renew_lease(release) -> bool:
    """What the build's own renewal does between chunks, under this attempt's claim only."""
    from annotations.releases.models import Release, ReleaseState
    from attune_collect.config import attune_config

    lease = timedelta(seconds=attune_config().release_build_lease_s)
    return bool(
        Release.objects.filter(
            pk=release.pk, state=ReleaseState.BUILDING, attempts=release.attempts
        ).update(lease_expires_at=timezone.now() + lease)
    )


class BuildHoldConfig(AppConfig):
    name = "tests.evaluation.build_hold"
    label = "test_build_hold"

    def ready(self) -> None:
        from annotations.releases.signals import build_chunk_written

        build_chunk_written.connect(hold_build, dispatch_uid="test-build-hold")
