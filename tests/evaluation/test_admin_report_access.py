"""The report in the admin (leaderboard, figures, files, zip) behind evaluation.view_report,
and cancel/resume behind evaluation.start_evaluation (POST only)."""

import io
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from evaluation.models import RunStatus
from evaluation.services.creation import create_run
from evaluation.services.inline import run_inline

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_run(run_request, demo_models):
    run = create_run(
        run_request(models=demo_models, subsample="sample3"), actor_label="test", inline=True
    )
    return run_inline(run.pk, worker="test@host")


def test_researchers_and_viewers_read_the_report(finished_run, client, researcher, viewer):
    assert finished_run.status == RunStatus.COMPLETED
    for user in (researcher, viewer):
        client.force_login(user)
        page = client.get(reverse("admin:evaluation_run_report", args=[finished_run.pk]))
        assert page.status_code == 200
        assert 'id="leaderboard"' in page.text and "attune-demo/advisor" in page.text
        assert (
            "charts/axis_composite.svg" in page.text
            and "pairs reliably distinguished" in page.text.lower()
        )
        assert finished_run.release_hash in page.text
        csv = client.get(
            reverse("admin:evaluation_run_file", args=[finished_run.pk, "leaderboard.csv"])
        )
        assert b"".join(csv.streaming_content).startswith(b"model,kind,mode")


def test_the_folder_downloads_as_a_zip(finished_run, researcher_client):
    response = researcher_client.get(
        reverse("admin:evaluation_run_download", args=[finished_run.pk])
    )
    assert (
        response["Content-Disposition"]
        == f'attachment; filename="evaluation-run-{finished_run.pk}.zip"'
    )
    names = set(zipfile.ZipFile(io.BytesIO(response.content)).namelist())
    top = f"evaluation-run-{finished_run.pk}/"
    assert {top + "report.html", top + "report.json", top + "leaderboard.csv"} <= names
    assert any(name.startswith(top + "charts/") and name.endswith(".svg") for name in names)


def test_reviewers_and_outsiders_do_not(finished_run, client, reviewer, outsider):
    url = reverse("admin:evaluation_run_report", args=[finished_run.pk])
    client.force_login(reviewer)
    assert client.get(url).status_code == 403
    assert (
        client.get(reverse("admin:evaluation_run_download", args=[finished_run.pk])).status_code
        == 403
    )
    client.force_login(outsider)  # no staff account: the admin's login page
    assert client.get(url).status_code == 302


@pytest.mark.parametrize(
    "name", ["../../../etc/passwd", "charts/../report.json", "MANIFEST.json", "scores.json/x"]
)
def test_only_report_files_are_served(finished_run, researcher_client, name):
    url = reverse("admin:evaluation_run_file", args=[finished_run.pk, name])
    assert researcher_client.get(url).status_code == 404


def test_cancel_and_resume_are_buttons_for_researchers(run_request, researcher_client, viewer):
    run = create_run(run_request(), actor_label="test")
    cancel = reverse("admin:evaluation_run_cancel", args=[run.pk])
    resume = reverse("admin:evaluation_run_resume", args=[run.pk])
    viewer_client = Client()
    viewer_client.force_login(viewer)
    assert viewer_client.post(cancel).status_code == 403
    assert researcher_client.get(cancel).status_code == 403  # a link must not cancel a run
    assert researcher_client.post(cancel).status_code == 302
    run.refresh_from_db()
    assert run.status == RunStatus.CANCELLED
    page = researcher_client.get(reverse("admin:evaluation_evaluationrun_change", args=[run.pk]))
    assert "Resume the run" in page.text and "Cancel the run" not in page.text
    researcher_client.post(resume)
    run.refresh_from_db()
    assert run.status == RunStatus.RUNNING


def test_the_lists_of_runs_and_units(finished_run, researcher_client):
    runs = researcher_client.get(reverse("admin:evaluation_evaluationrun_changelist"))
    assert runs.status_code == 200 and "report</a>" in runs.text and "6/6 (0 failed)" in runs.text
    units = researcher_client.get(
        reverse("admin:evaluation_evaluationunit_changelist") + f"?run__id__exact={finished_run.pk}"
    )
    assert units.status_code == 200 and "6 evaluation units" in units.text


def test_the_leaderboard_labels_the_platform_axis(finished_run, researcher_client):
    page = researcher_client.get(reverse("admin:evaluation_run_report", args=[finished_run.pk]))
    assert "<th>Outcome prediction (this platform&#x27;s addition)</th>" in page.text
