"""A worker that renews its lease after losing its claim stops there: worker A writes a chunk,
stalls past its lease, worker B takes the build over and freezes it; A's next renewal finds the
claim gone, so A writes nothing more, changes nothing on the row and leaves no folder behind."""

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from annotations.releases.folder import ReleaseFolderWriter
from annotations.releases.manifest import verify_folder
from annotations.releases.models import Release, ReleaseState
from annotations.releases.services import ReleaseError, build_release, create_release
from tests.releases.stalled_worker import start_stalled_worker

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_renewal_after_a_lost_claim_stops_the_build(
    demo_study, releases_dir, settings, monkeypatch
):
    settings.ATTUNE = replace(settings.ATTUNE, release_chunk_size=4)  # several chunks to write
    release = create_release(name="attunebench", version="1.0.0", studies=[demo_study])
    worker_a = start_stalled_worker(monkeypatch, ReleaseFolderWriter, "add_chunk", release.pk)
    Release.objects.filter(pk=release.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    frozen = build_release(release.pk)  # worker B
    assert frozen.state == ReleaseState.FROZEN and frozen.progress_total > 4

    raised = worker_a.finish()

    assert isinstance(raised, ReleaseError), raised
    assert "taken over by another worker" in str(raised)
    assert raised.__cause__ is None  # refused by the claim check, not by a missing file
    assert worker_a.calls == ["add_chunk"]  # A wrote no chunk after its claim was gone
    release.refresh_from_db()
    assert (release.state, release.attempts, release.progress_done, release.error) == (
        ReleaseState.FROZEN,
        2,
        frozen.progress_total,
        "",
    )
    final = Path(frozen.folder)
    assert verify_folder(final, frozen.content_hash).ok
    assert not [p.name for p in final.parent.iterdir() if p.name.startswith(".")]
