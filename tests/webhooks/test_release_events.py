"""``release.frozen`` and ``release.failed``: sent by the build that freezes a release or
fails, to the endpoints of its studies, naming the release."""

from dataclasses import replace

import pytest

from annotations.demo import seed_demo
from annotations.releases import services as release_services
from annotations.releases.services import build_release, create_release
from tests.factories import make_staff
from webhooks.event_types import EventType

pytestmark = pytest.mark.django_db


@pytest.fixture
def release(settings, tmp_path):
    settings.ATTUNE = replace(settings.ATTUNE, releases_dir=tmp_path / "releases")
    study = seed_demo(4, seed=5).study
    return create_release(name="bench", version="1.0.0", studies=[study], actor_label="test")


@pytest.fixture
def subscribed(release, subscribe):
    (study,) = release.studies.all()
    member = make_staff("researcher", studies={study: "researcher"})
    subscribe(member, [study], [EventType.RELEASE_FROZEN, EventType.RELEASE_FAILED])
    return study


def test_a_frozen_release_sends_release_frozen(
    release, subscribed, receiver, run_deliveries, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert build_release(release.pk).state == "frozen"
    run_deliveries()
    (got,) = receiver.received
    assert got.verified and got.json["type"] == "release.frozen"
    assert got.json["data"] == {"release_id": release.pk, "study_ids": [subscribed.pk]}


def test_a_failed_build_sends_release_failed(
    release, subscribed, receiver, run_deliveries, monkeypatch, django_capture_on_commit_callbacks
):
    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(release_services, "_build_into", broken)
    with pytest.raises(OSError), django_capture_on_commit_callbacks(execute=True):
        build_release(release.pk)
    run_deliveries()
    (got,) = receiver.received
    assert got.verified and got.json["type"] == "release.failed"
    assert got.json["data"]["release_id"] == release.pk
