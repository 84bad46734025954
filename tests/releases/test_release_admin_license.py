"""The admin's build form refuses a license the Hub does not know, naming the closest ones."""

import pytest
from django.urls import reverse

from annotations.releases.models import Release

pytestmark = pytest.mark.django_db


def post(client, study, **license):
    form = {
        "name": "attunebench",
        "version": "1.0.0",
        "studies": [study.pk],
        "completed_only": "on",
        "qa_rule": "non_excluded",
        "layer": "participant",
        "subsample_sizes": "[10]",
        "subsample_seed": "7",
        "description": "",
        **license,
    }
    return client.post(reverse("admin:releases_release_add"), form)


def test_an_unknown_license_is_refused_on_the_form(researcher_client, demo_study, releases_dir):
    response = post(researcher_client, demo_study, license="CC BY-NC 4.0: research only")
    assert response.status_code == 200  # the form again, with the error
    assert "closest are cc-by-nc-4.0" in response.text
    assert not Release.objects.exists()


def test_other_without_a_name_is_refused_on_the_form(researcher_client, demo_study, releases_dir):
    response = post(researcher_client, demo_study, license="other", license_name="")
    assert response.status_code == 200 and "needs a license name" in response.text
    assert not Release.objects.exists()


def test_other_with_a_name_is_accepted(
    researcher_client, demo_study, releases_dir, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        response = post(
            researcher_client,
            demo_study,
            license="other",
            license_name="Research only: «no resale»",
        )
    assert response.status_code == 302
    assert Release.objects.get().license_name == "Research only: «no resale»"
