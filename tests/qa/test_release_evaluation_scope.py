"""The permission matrix of releases and evaluation runs for users limited to one study.

A release spans studies; a user whose memberships cover study A sees, builds, downloads and
evaluates only releases made of A alone (a release of A and B holds B's data), and only the
runs over those releases. Same helper as the QA pages (``annotations/qa/access.py``).
"""

import pytest
from django.urls import reverse

from annotations.releases.models import Release, ReleaseState
from evaluation.models import EvaluationRun, RunStatus
from tests.factories import make_staff, make_study

pytestmark = pytest.mark.django_db

R, Q, V = "researcher", "qa_reviewer", "viewer"


@pytest.fixture
def world(tmp_path):
    mine, theirs = make_study(slug="mine"), make_study(slug="theirs")
    releases = {}
    for key, studies in {"mine": [mine], "theirs": [theirs], "mixed": [mine, theirs]}.items():
        folder = tmp_path / key / "1.0.0"
        folder.mkdir(parents=True)
        (folder.parent / f"{key}-1.0.0.tar.gz").write_bytes(b"archive")
        release = Release.objects.create(
            name=key,
            version="1.0.0",
            state=ReleaseState.FROZEN,
            content_hash="f" * 64,
            folder=str(folder),
        )
        release.studies.set(studies)
        releases[key] = release
    runs = {}
    for key in ("mine", "mixed"):
        report = tmp_path / f"report-{key}"
        report.mkdir()
        (report / "leaderboard.csv").write_text("model,kind,mode\n")
        runs[key] = EvaluationRun.objects.create(
            release=releases[key],
            release_hash="f" * 64,
            prompt_version="v1",
            status=RunStatus.COMPLETED,
            report_folder=str(report),
        )
    return {"mine": mine, "theirs": theirs, "releases": releases, "runs": runs}


def _login(client, role, world):
    client.force_login(make_staff(role, studies={world["mine"]: role}))
    return client


def _change_links(page: str, model: str, rows: dict) -> set[str]:
    return {key for key, row in rows.items() if f"/{model}/{row.pk}/change/" in page}


@pytest.mark.parametrize("role", [R, V])
def test_lists_show_only_the_users_studies(role, world, client):
    _login(client, role, world)
    releases = client.get(reverse("admin:releases_release_changelist")).text
    assert _change_links(releases, "release", world["releases"]) == {"mine"}
    runs = client.get(reverse("admin:evaluation_evaluationrun_changelist")).text
    assert _change_links(runs, "evaluationrun", world["runs"]) == {"mine"}
    for key in ("theirs", "mixed"):
        url = reverse("admin:releases_release_change", args=[world["releases"][key].pk])
        assert client.get(url).status_code == 302  # "no such release": back to the index
    url = reverse("admin:evaluation_evaluationrun_change", args=[world["runs"]["mixed"].pk])
    assert client.get(url).status_code == 302


@pytest.mark.parametrize(("role", "allowed"), [(R, True), (V, False), (Q, False)])
def test_downloads_need_the_permission_in_every_study(role, allowed, world, client):
    _login(client, role, world)
    releases = world["releases"]
    mine = client.get(reverse("admin:releases_release_download", args=[releases["mine"].pk]))
    assert mine.status_code == (200 if allowed else 403)
    for key in ("theirs", "mixed"):
        url = reverse("admin:releases_release_download", args=[releases[key].pk])
        assert client.get(url).status_code in (403, 404), key
    diff = reverse("admin:releases_release_diff", args=[releases["mine"].pk, releases["mixed"].pk])
    assert client.get(diff).status_code in (403, 404)


@pytest.mark.parametrize(("role", "allowed"), [(R, True), (V, True), (Q, False)])
def test_reports_need_the_permission_in_every_study(role, allowed, world, client):
    _login(client, role, world)
    runs = world["runs"]
    for view, args in (("file", ["leaderboard.csv"]), ("download", [])):
        mine = client.get(reverse(f"admin:evaluation_run_{view}", args=[runs["mine"].pk, *args]))
        assert mine.status_code == (200 if allowed else 403), view
        mixed = reverse(f"admin:evaluation_run_{view}", args=[runs["mixed"].pk, *args])
        assert client.get(mixed).status_code in (403, 404), view
    cancel = client.post(reverse("admin:evaluation_run_cancel", args=[runs["mixed"].pk]))
    assert cancel.status_code in (403, 404)


def test_the_release_form_offers_and_accepts_only_the_users_studies(world, client):
    _login(client, R, world)
    add = reverse("admin:releases_release_add")
    form = client.get(add).context["adminform"].form
    assert set(form.fields["studies"].queryset) == {world["mine"]}
    data = {
        "name": "sneaky",
        "version": "1.0.0",
        "studies": [world["theirs"].pk],
        "completed_only": "on",
        "qa_rule": "non_excluded",
        "layer": "participant",
        "subsample_sizes": "[]",
        "subsample_seed": "1",
        "license": "CC-BY-4.0",
    }
    response = client.post(add, data)
    assert response.status_code == 200 and not Release.objects.filter(name="sneaky").exists()


def test_the_evaluation_start_page_offers_only_the_users_releases(world, client):
    _login(client, R, world)
    form = client.get(reverse("admin:evaluation_evaluationrun_add")).context["form"]
    assert set(form.fields["release"].queryset) == {world["releases"]["mine"]}
    _login(client, V, world)
    assert client.get(reverse("admin:evaluation_evaluationrun_add")).status_code == 403
