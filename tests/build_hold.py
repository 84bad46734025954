"""A barrier in the middle of a release build, for the worker processes tests start.

Installed as an app by a worker's settings (``tests/releases/worker_settings.py``,
``tests/evaluation/worker_settings.py``) when the test sets ``ATTUNE_TEST_BUILD_HOLD`` to a
folder of its own. The first build whose ``build_chunk_written``
(``annotations/releases/signals.py``) reports at least ``ATTUNE_TEST_BUILD_HOLD_AT``
conversations written creates ``held`` there (exclusively: only the first build is held; a later
one, such as the retry or a rescuing worker's, passes) and waits until the test creates ``go``
or kills the worker. The build is then under way by construction, not by timing.

While it waits, the held build keeps its claim alive as a build between two chunks does, by
renewing its lease: the hold may last longer than the lease (seconds, in some tests), and a
lapsed lease would have the worker's own sweep send the build again before the test kills it.
Once the worker is killed nobody renews it, exactly as after a real kill.
"""

from __future__ import annotations

import os
import time
from datetime import timedelta
from pathlib import Path

from django.apps import AppConfig
from django.utils import timezone

HOLD_ENV = "ATTUNE_TEST_BUILD_HOLD"
HOLD_AT_ENV = "ATTUNE_TEST_BUILD_HOLD_AT"
# A held build gives up waiting after this long (the test has failed by then) and goes on.
HOLD_LIMIT_S = 300.0
# How often a held build looks for ``go`` and renews its lease (well inside the shortest lease
# the tests use, 4 s).
RENEW_EVERY_S = 0.5


def held_file(folder: str | Path) -> Path:
    """Created by the held build, holding ``<release id>:<attempt>:<conversations written>``."""
    return Path(folder) / "held"


def go_file(folder: str | Path) -> Path:
    """Created by the test to let the held build go on."""
    return Path(folder) / "go"


def release_hold(folder: str | Path) -> None:
    go_file(folder).touch()


def hold_build(sender, *, release, done: int, **_kwargs) -> None:
    folder = os.environ.get(HOLD_ENV)
    if not folder or done < int(os.environ.get(HOLD_AT_ENV, "1")):
        return
    try:
        fd = os.open(held_file(folder), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return  # a build was held already: this one passes
    with os.fdopen(fd, "w") as out:
        out.write(f"{release.pk}:{release.attempts}:{done}")
    deadline = time.monotonic() + HOLD_LIMIT_S
    while time.monotonic() < deadline and not go_file(folder).exists():
        if not _renew_lease(release):
            return  # the claim is gone: the build's next renewal says so
        time.sleep(RENEW_EVERY_S)


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
    name = "tests.build_hold"
    label = "test_build_hold"

    def ready(self) -> None:
        from annotations.releases.signals import build_chunk_written

        build_chunk_written.connect(hold_build, dispatch_uid="test-build-hold")
