"""A second build of a release a worker is building is refused: queuing it again (the admin's
retry, the command) would reset the worker's claim and let the second build delete the first
one's temporary folder. Once the worker's lease has lapsed (it died), a retry is accepted."""

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from annotations.dispatch import BUILD_RELEASE
from annotations.releases.models import Release, ReleaseState
from annotations.releases.services import (
    ReleaseError,
    build_release,
    create_release,
    enqueue_build,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def building(demo_study, releases_dir) -> Release:
    """A release a live worker is building: its claim (attempt 1) under a lease, its folder."""
    release = create_release(name="attunebench", version="1.0.0", studies=[demo_study])
    Release.objects.filter(pk=release.pk).update(
        state=ReleaseState.BUILDING,
        attempts=1,
        lease_expires_at=timezone.now() + timedelta(minutes=5),
    )
    (releases_dir / "attunebench" / ".tmp-1.0.0-first").mkdir(parents=True)
    release.refresh_from_db()
    return release


def _claim(release: Release) -> tuple[str, int, object]:
    release.refresh_from_db()
    return release.state, release.attempts, release.lease_expires_at


def test_queuing_it_again_is_refused_and_the_build_goes_on(
    building, releases_dir, sent_tasks, django_capture_on_commit_callbacks
):
    before = _claim(building)
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(ReleaseError, match="is being built by a worker"),
    ):
        enqueue_build(building)
    assert _claim(building) == before
    assert sent_tasks[BUILD_RELEASE] == []
    build_release(building.pk)  # a duplicate message meanwhile: left to the live worker
    assert _claim(building) == before
    assert (releases_dir / "attunebench" / ".tmp-1.0.0-first").is_dir()


def test_once_the_lease_has_lapsed_a_retry_is_accepted(
    building, sent_tasks, django_capture_on_commit_callbacks
):
    Release.objects.filter(pk=building.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)  # the worker died
    )
    with django_capture_on_commit_callbacks(execute=True):
        enqueue_build(building)
    assert _claim(building)[0] == ReleaseState.DRAFT
    assert sent_tasks[BUILD_RELEASE] == [building.pk]


def test_the_admins_retry_says_why_and_changes_nothing(building, researcher_client, sent_tasks):
    before = _claim(building)
    response = researcher_client.post(
        reverse("admin:releases_release_changelist"),
        {"action": "retry_build", "_selected_action": [building.pk]},
    )
    assert response.status_code == 302
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("is being built by a worker" in text for text in shown), shown
    assert _claim(building) == before and sent_tasks[BUILD_RELEASE] == []


def test_the_inline_command_refuses(building):
    with pytest.raises(CommandError, match="is being built by a worker"):
        call_command("build_release", "--name=attunebench", "--version=1.0.0", "--inline")
    assert _claim(building)[1] == 1
