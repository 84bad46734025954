"""A barrier in the middle of a release build, for the worker a test starts (no Redis needed).

Installed as an app by ``tests/releases/worker_settings.py`` when the test sets
``ATTUNE_TEST_BUILD_BARRIER`` (a folder of its own). The first build whose
``build_chunk_written`` (``annotations/releases/signals.py``) reports at least
``ATTUNE_TEST_BUILD_BARRIER_AT`` conversations written creates ``held`` there (exclusively:
only the first build is held; a later one, such as the retry, passes) and waits for the test,
which kills the worker. The build is then under way by construction, not by timing.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from django.apps import AppConfig

BARRIER_ENV = "ATTUNE_TEST_BUILD_BARRIER"
BARRIER_AT_ENV = "ATTUNE_TEST_BUILD_BARRIER_AT"
# A held build gives up after this long (the test has failed by then) and goes on.
HOLD_LIMIT_S = 300.0


def held_file(folder: str | Path) -> Path:
    """Created by the held build, holding ``<release id>:<attempt>:<conversations written>``."""
    return Path(folder) / "held"


def hold_build(sender, *, release, done: int, **_kwargs) -> None:
    folder = os.environ.get(BARRIER_ENV)
    if not folder or done < int(os.environ.get(BARRIER_AT_ENV, "1")):
        return
    try:
        fd = os.open(held_file(folder), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return  # a build was held already: this one (the retry) passes
    with os.fdopen(fd, "w") as out:
        out.write(f"{release.pk}:{release.attempts}:{done}")
    # Held until the test kills this worker (its lease, 300 s by default, outlasts the hold).
    deadline = time.monotonic() + HOLD_LIMIT_S
    while time.monotonic() < deadline:
        time.sleep(0.5)


class BuildBarrierConfig(AppConfig):
    name = "tests.releases.build_barrier"
    label = "test_build_barrier"

    def ready(self) -> None:
        from annotations.releases.signals import build_chunk_written

        build_chunk_written.connect(hold_build, dispatch_uid="test-build-barrier")
