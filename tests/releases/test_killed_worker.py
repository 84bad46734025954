"""A worker killed in the middle of an export leaves no half release; a retry finishes the job."""

import signal
import time
from dataclasses import replace
from pathlib import Path

import pytest
from django.utils import timezone

from annotations.demo import seed_demo
from annotations.releases.manifest import verify_folder
from annotations.releases.models import Release, ReleaseState
from annotations.releases.services import create_release, enqueue_build
from tests import build_hold
from tests.worker_process import celery_worker

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
CONVERSATIONS = 40
CHUNK = 4
HELD_AT = 8  # conversations the first build has written when it is held, and killed


def wait_for(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def test_kill_mid_build_then_retry(tmp_path, settings):
    settings.ATTUNE = replace(settings.ATTUNE, releases_dir=tmp_path / "releases")
    # The worker is killed while the build is held between two chunks (a barrier the test
    # controls, tests/build_hold.py): mid-build by construction, not by timing.
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    worker_env = {
        "DJANGO_SETTINGS_MODULE": "tests.releases.worker_settings",
        "ATTUNE_RELEASES_DIR": str(settings.ATTUNE.releases_dir),
        "ATTUNE_RELEASE_CHUNK_SIZE": str(CHUNK),
        build_hold.HOLD_ENV: str(barrier),
        build_hold.HOLD_AT_ENV: str(HELD_AT),
    }
    study = seed_demo(CONVERSATIONS, seed=9).study
    release = create_release(name="attunebench", version="1.0.0", studies=[study])
    root = settings.ATTUNE.releases_dir / "attunebench"
    held = build_hold.held_file(barrier)

    with celery_worker(worker_env, name="doomed") as worker:
        enqueue_build(release)
        wait_for(
            lambda: (
                held.exists()
                and Release.objects.filter(
                    pk=release.pk, state=ReleaseState.BUILDING, progress_done=HELD_AT
                ).exists()
            ),
            60,
            "the build to be held mid-way",
        )
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)

    release.refresh_from_db()
    assert release.state == ReleaseState.BUILDING and release.progress_done < CONVERSATIONS
    assert not (root / "1.0.0").exists()  # no half release under the final name
    assert list(root.glob(".tmp-1.0.0-*"))  # only the temporary folder was left behind

    # The killed worker's lease runs on (a retry is refused while it does): let it lapse.
    Release.objects.filter(pk=release.pk).update(lease_expires_at=timezone.now())
    with celery_worker(worker_env, name="rescuer"):
        enqueue_build(release)
        wait_for(
            lambda: Release.objects.filter(pk=release.pk, state=ReleaseState.FROZEN).exists(),
            120,
            "the retry",
        )

    release.refresh_from_db()
    assert release.counts["conversations"] == CONVERSATIONS and release.attempts == 2
    assert verify_folder(Path(release.folder), release.content_hash).ok
    assert not list(root.glob(".tmp-*"))
