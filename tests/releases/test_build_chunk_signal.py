"""A build sends ``build_chunk_written`` after each chunk, once the chunk's progress and the
build's lease are recorded: a receiver sees a build under way under its claim, the point where
the killed-worker end-to-end test holds a build (tests/build_hold.py)."""

from dataclasses import replace

import pytest
from django.utils import timezone

from annotations.releases.models import Release, ReleaseState
from annotations.releases.services import build_release, create_release
from annotations.releases.signals import build_chunk_written

pytestmark = pytest.mark.django_db


def test_each_chunk_is_reported_with_its_progress_recorded(demo_study, releases_dir, settings):
    settings.ATTUNE = replace(settings.ATTUNE, release_chunk_size=5)
    release = create_release(name="attunebench", version="1.0.0", studies=[demo_study])
    seen: list[tuple[int, int, str, int, bool]] = []

    def receiver(sender, *, release, done, **_kwargs) -> None:
        row = Release.objects.get(pk=release.pk)
        live = row.lease_expires_at is not None and row.lease_expires_at > timezone.now()
        seen.append((done, row.progress_done, row.state, row.attempts, live))

    build_chunk_written.connect(receiver, sender=Release)
    try:
        frozen = build_release(release.pk)
    finally:
        build_chunk_written.disconnect(receiver, sender=Release)

    total = frozen.counts["conversations"]
    assert frozen.state == ReleaseState.FROZEN and total > 5
    expected = [min(done, total) for done in range(5, total + 5, 5)]
    assert [s[0] for s in seen] == expected
    for done, recorded, state, attempts, live in seen:
        assert (recorded, state, attempts, live) == (done, ReleaseState.BUILDING, 1, True)
