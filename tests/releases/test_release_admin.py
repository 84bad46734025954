"""The admin builds (queued after commit), shows progress, downloads with permission, and diffs."""

import pytest
from django.urls import reverse

from annotations.demo import seed_demo
from annotations.releases.models import Release, ReleaseState
from annotations.releases.services import build_release

pytestmark = pytest.mark.django_db


def build_form(study, **changes) -> dict:
    """The admin's build form, filled in for one study (``changes`` replace fields)."""
    form = {
        "name": "attunebench",
        "version": "1.0.0",
        "studies": [study.pk],
        "completed_only": "on",
        "qa_rule": "non_excluded",
        "layer": "participant",
        "subsample_sizes": "[10]",
        "subsample_seed": "7",
        "license": "CC-BY-4.0",
        "description": "",
    }
    return {**form, **changes}


def test_a_researcher_builds_a_release_from_the_admin(
    researcher_client, demo_study, releases_dir, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = researcher_client.post(
            reverse("admin:releases_release_add"), build_form(demo_study)
        )
    assert response.status_code == 302, response.content[:2000]
    release = Release.objects.get(name="attunebench")
    assert (
        release.state == ReleaseState.DRAFT and len(callbacks) == 1
    )  # queued for a worker after commit
    build_release(release.pk)  # what the worker does
    page = researcher_client.get(reverse("admin:releases_release_change", args=[release.pk]))
    assert page.status_code == 200 and 'value="100"' in page.text


def test_the_change_page_refreshes_while_building(researcher_client, demo_study):
    from annotations.releases.services import create_release

    release = create_release(name="attunebench", version="1.0.0", studies=[demo_study])
    page = researcher_client.get(reverse("admin:releases_release_change", args=[release.pk]))
    assert '<meta http-equiv="refresh"' in page.text


def test_download_needs_the_permission(build, researcher_client, client, reviewer):
    release = build()
    url = reverse("admin:releases_release_download", args=[release.pk])
    response = researcher_client.get(url)
    assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment")
    assert b"".join(response.streaming_content)[:2] == b"\x1f\x8b"  # gzip
    client.force_login(reviewer)
    assert client.get(url).status_code == 403


def test_diff_of_two_releases(build, researcher_client, demo_study):
    old = build("1.0.0")
    seed_demo(26, seed=5)
    new = build("1.1.0")
    page = researcher_client.get(reverse("admin:releases_release_diff", args=[old.pk, new.pk]))
    assert page.status_code == 200
    assert "2 added, 0 removed, 0 changed" in page.text
