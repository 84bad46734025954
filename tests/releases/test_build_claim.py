"""A release build is claimed with a lease like an evaluation unit: a duplicate message does not
build a release a live worker is building, and the workers' sweep sends again a build whose
worker stopped renewing its lease, or one queued but claimed by nobody past the bound."""

from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone

from annotations.dispatch import BUILD_RELEASE
from annotations.releases.models import Release, ReleaseState
from annotations.releases.services import build_release, create_release, sweep_release_builds

pytestmark = pytest.mark.django_db


@pytest.fixture
def release(demo_study, releases_dir):
    return create_release(name="attunebench", version="1.0.0", studies=[demo_study])


@pytest.fixture
def sent(sent_tasks) -> list[int]:
    return sent_tasks[BUILD_RELEASE]


def _set(release, **fields):
    Release.objects.filter(pk=release.pk).update(**fields)


def test_a_duplicate_message_does_not_build_what_a_live_worker_builds(release):
    lease = timezone.now() + timedelta(minutes=5)
    _set(release, state=ReleaseState.BUILDING, attempts=1, lease_expires_at=lease)
    build_release(release.pk)
    release.refresh_from_db()
    assert (release.state, release.attempts) == (ReleaseState.BUILDING, 1)


def test_a_lapsed_build_is_sent_again_and_taken_over(
    release, sent, django_capture_on_commit_callbacks
):
    lapsed = timezone.now() - timedelta(seconds=1)
    _set(release, state=ReleaseState.BUILDING, attempts=1, lease_expires_at=lapsed)
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_release_builds() == [release.pk]
    assert sent == [release.pk]
    frozen = build_release(release.pk)
    assert (frozen.state, frozen.attempts) == (ReleaseState.FROZEN, 2)


def test_an_unclaimed_build_is_sent_again_after_the_bound(
    release, sent, settings, django_capture_on_commit_callbacks
):
    settings.ATTUNE = replace(settings.ATTUNE, unclaimed_requeue_s=60)
    _set(release, state=ReleaseState.DRAFT, queued_at=timezone.now() - timedelta(seconds=30))
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_release_builds() == []
    _set(release, queued_at=timezone.now() - timedelta(seconds=90))
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_release_builds() == [release.pk]
    assert sent == [release.pk]
