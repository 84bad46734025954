"""A build whose lease lapsed cannot clobber the release another worker froze meanwhile: worker
A builds, stalls past its lease just before it would publish, worker B takes the build over and
freezes it; when A resumes, its claim is checked under the row's lock in the same step as the
rename, so A stops, leaves B's folder and archive alone and removes only its own temporary
folder. The frozen release still verifies."""

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from annotations.releases import services
from annotations.releases.manifest import sha256_file, verify_folder
from annotations.releases.models import Release, ReleaseState
from annotations.releases.services import ReleaseError, build_release, create_release
from tests.releases.stalled_worker import start_stalled_worker

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_worker_whose_lease_lapsed_does_not_touch_the_frozen_release(
    demo_study, releases_dir, monkeypatch
):
    release = create_release(name="attunebench", version="1.0.0", studies=[demo_study])
    # A has written its whole folder and read "no frozen release yet", then stalls.
    worker_a = start_stalled_worker(monkeypatch, services, "latest_frozen", release.pk)
    Release.objects.filter(pk=release.pk).update(  # A's lease runs out while it stalls
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )

    frozen = build_release(release.pk)  # worker B takes the build over and freezes it
    assert (frozen.state, frozen.attempts) == (ReleaseState.FROZEN, 2)
    final, archive = Path(frozen.folder), Path(frozen.folder).with_name("attunebench-1.0.0.tar.gz")
    published = (os.stat(final).st_ino, os.stat(archive).st_ino)

    raised = worker_a.finish()

    assert isinstance(raised, ReleaseError), raised
    assert "taken over by another worker" in str(raised)
    assert raised.__cause__ is None  # refused by the claim check, not by a missing file
    assert (os.stat(final).st_ino, os.stat(archive).st_ino) == published  # not replaced
    assert verify_folder(final, frozen.content_hash).ok
    assert sha256_file(archive) == frozen.archive_sha256
    assert not [p.name for p in final.parent.iterdir() if p.name.startswith(".")]
    release.refresh_from_db()
    assert (release.state, release.attempts, release.error) == (ReleaseState.FROZEN, 2, "")
