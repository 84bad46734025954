"""End to end: a researcher starts a run in the admin (form, then confirmation) on a seeded
release with two demo models; a real Celery worker on Redis runs it, a second worker joins in
the middle and takes a share of the units; the report is then shown, served and downloadable.

The first worker is paused (SIGSTOP) once it has finished a unit and resumed once the second
has claimed one: a worker starts in seconds on a loaded host, and without the pause the first
could finish all sixteen units before the second took any (CI saw it). Nothing else is timed.

Runs against Redis db 15 always (REDIS_URL or the local Redis): nothing is skipped.
"""

import io
import os
import signal
import time
import zipfile
from collections import Counter

import pytest
from django.urls import reverse

from evaluation.models import EvaluationRun, EvaluationUnit, UnitStatus
from tests.evaluation.conftest import make_release, wait_until_completed
from tests.releases.test_killed_worker import wait_for
from tests.worker_process import celery_worker

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_admin_run_on_two_workers(celery_on_redis, researcher_client, client, reviewer):
    from annotations.demo import ensure_demo_endpoints

    release = make_release(conversations=8, seed=4)
    personas = {e.model_name: e for e in ensure_demo_endpoints()}
    models = [personas["listener"], personas["advisor"]]
    # The demo answers word by word with a delay, so a unit takes about a second, as a real
    # model's would: long enough for the second worker to join while units remain.
    env = {**celery_on_redis, "ATTUNE_DEMO_TOKEN_DELAY_MS": "15"}
    form = {
        "release": release.pk,
        "models": [m.pk for m in models],
        "modes": ["default"],
        "panas_strategy": "absolute",
        "subsample": "",
        "prompt_set": "v1",
        "seed": "11",
    }
    add = reverse("admin:evaluation_evaluationrun_add")
    started = time.monotonic()
    with celery_worker(env, name="first") as first:
        confirm = researcher_client.post(add, {**form, "_plan": "1"})
        assert "16 units" in confirm.text and "Estimated cost: $0.0000" in confirm.text
        response = researcher_client.post(add, {**form, "_confirm": "1"})
        assert response.status_code == 302
        run = EvaluationRun.objects.get()

        wait_for(
            lambda: EvaluationRun.objects.filter(pk=run.pk, units_done__gte=1).exists(),
            90,
            "the first worker to finish units",
        )
        os.kill(first.pid, signal.SIGSTOP)
        try:
            with celery_worker(env, name="second"):
                wait_for(
                    lambda: EvaluationUnit.objects.filter(
                        run=run, worker__startswith="second@"
                    ).exists(),
                    90,
                    "the second worker to claim a unit",
                )
                os.kill(first.pid, signal.SIGCONT)
                wait_until_completed(run.pk, 180, "the run to complete")
        finally:
            os.kill(first.pid, signal.SIGCONT)
    elapsed = time.monotonic() - started

    run.refresh_from_db()
    assert run.units_done == 16 and run.units_failed == 0
    # Every planned call was answered once (a call identical to one in flight shares its answer).
    assert run.calls_made + run.calls_cached == run.estimated_calls and run.calls_made > 0
    units = EvaluationUnit.objects.filter(run=run)
    assert set(units.values_list("status", flat=True)) == {UnitStatus.DONE}
    workers = {name.split("@")[0] for name in units.values_list("worker", flat=True)}
    assert workers == {"first", "second"}  # both shared the work
    assert sorted(units.values_list("attempts", flat=True)) == [1] * 16  # none ran twice

    change = researcher_client.get(reverse("admin:evaluation_evaluationrun_change", args=[run.pk]))
    assert "16/16</strong> units done" in change.text and 'http-equiv="refresh"' not in change.text
    report = researcher_client.get(reverse("admin:evaluation_run_report", args=[run.pk]))
    assert report.status_code == 200
    assert "attune-demo/listener" in report.text and "attune-demo/advisor" in report.text
    assert "baseline/random" in report.text and release.content_hash in report.text
    chart = researcher_client.get(
        reverse("admin:evaluation_run_file", args=[run.pk, "charts/axis_composite.svg"])
    )
    assert chart.status_code == 200 and chart["Content-Type"] == "image/svg+xml"
    html = researcher_client.get(reverse("admin:evaluation_run_file", args=[run.pk, "report.html"]))
    assert b"<svg" in b"".join(html.streaming_content)
    download = researcher_client.get(reverse("admin:evaluation_run_download", args=[run.pk]))
    names = zipfile.ZipFile(io.BytesIO(download.content)).namelist()
    prefix = f"evaluation-run-{run.pk}/"
    assert {prefix + "report.html", prefix + "leaderboard.csv", prefix + "report.json"} <= set(
        names
    )

    client.force_login(reviewer)  # QA reviewers do not see reports
    assert client.get(reverse("admin:evaluation_run_report", args=[run.pk])).status_code == 403
    shares = Counter(name.split("@")[0] for name in units.values_list("worker", flat=True))
    print(f"\ne2e: 16 units in {elapsed:.1f} s with worker start-up; units per worker {shares}")
