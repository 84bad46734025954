"""A build request the release service refuses is shown on the admin's form, on the field to
change, with nothing written: not a 403 page (the admin used to turn the refusal into one)."""

import pytest
from django.urls import reverse

from annotations.releases.models import Release
from annotations.releases.services import ReleaseError, create_release
from tests.releases.test_release_admin import build_form

pytestmark = pytest.mark.django_db


def test_an_existing_version_is_a_form_error_on_the_version(
    researcher_client, demo_study, releases_dir, sent_tasks
):
    existing = create_release(name="attunebench", version="1.0.0", studies=[demo_study])
    response = researcher_client.post(reverse("admin:releases_release_add"), build_form(demo_study))
    assert response.status_code == 200  # the form again, not a 403
    form = response.context["adminform"].form
    assert form.errors["version"] == [f"{existing} already exists ({existing.get_state_display()})"]
    assert Release.objects.count() == 1 and not sent_tasks  # nothing written, nothing queued


def test_a_version_below_the_latest_frozen_release_is_a_form_error_not_a_403(
    researcher_client, demo_study, build, sent_tasks
):
    latest = build("1.2.0")
    response = researcher_client.post(
        reverse("admin:releases_release_add"), build_form(demo_study, version="1.1.0")
    )
    assert response.status_code == 200  # was 403: the refusal became PermissionDenied
    errors = response.context["adminform"].form.errors
    assert errors["version"] == [f"version 1.1.0 is not higher than the latest release {latest}"]
    assert list(Release.objects.all()) == [latest] and not sent_tasks


def test_a_refusal_at_save_time_is_rolled_back_and_said_on_a_fresh_form(
    researcher_client, demo_study, releases_dir, monkeypatch
):
    # The service refuses after the form's check (another request was quicker): what the save
    # wrote is rolled back with the admin's transaction and the refusal is shown as a message.
    from annotations.releases import admin as release_admin

    def refused(**_):
        Release.objects.create(name="half-written", version="9.9.9")
        raise ReleaseError("attunebench@1.0.0 was created meanwhile", field="version")

    monkeypatch.setattr(release_admin, "create_release", refused)
    url = reverse("admin:releases_release_add")
    response = researcher_client.post(url, build_form(demo_study))
    assert response.status_code == 302 and response["Location"] == url
    page = researcher_client.get(url).text.lower()  # the admin capitalises a message
    assert '<li class="error">attunebench@1.0.0 was created meanwhile</li>' in page
    assert not Release.objects.exists()
