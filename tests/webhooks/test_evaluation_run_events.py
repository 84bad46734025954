"""``evaluation_run.finished`` and ``evaluation_run.failed``: sent by the run's one
finalization, to the endpoints of the studies of its release, naming the run."""

from dataclasses import replace

import pytest

from annotations.demo import ensure_demo_endpoints, seed_demo
from annotations.releases.services import build_release, create_release
from evaluation.models import EvaluationRun, UnitStatus
from evaluation.services.creation import create_run, start_run
from evaluation.services.finalize import finalize_run
from evaluation.services.planning import RunRequest
from evaluation.services.units import execute_unit
from tests.factories import make_staff
from webhooks.event_types import EventType

pytestmark = pytest.mark.django_db


@pytest.fixture
def started_run(settings, tmp_path):
    settings.ATTUNE = replace(
        settings.ATTUNE,
        releases_dir=tmp_path / "releases",
        evaluations_dir=tmp_path / "evaluations",
    )
    study = seed_demo(6, seed=3).study
    release = create_release(
        name="bench", version="1.0.0", studies=[study], subsample_sizes=[3], actor_label="test"
    )
    release = build_release(release.pk)
    model = {e.model_name: e for e in ensure_demo_endpoints()}["listener"]
    request = RunRequest(release=release, models=(model,), modes=("default",), subsample="sample3")
    run = create_run(request, actor_label="test", inline=True)
    start_run(run.pk)
    return run


@pytest.fixture
def subscribed(started_run, subscribe):
    (study,) = started_run.release.studies.all()
    member = make_staff("researcher", studies={study: "researcher"})
    subscribe(member, [study], [EventType.EVALUATION_RUN_FINISHED, EventType.EVALUATION_RUN_FAILED])
    return study


def test_a_finished_run_sends_evaluation_run_finished(
    started_run, subscribed, receiver, run_deliveries, django_capture_on_commit_callbacks
):
    for unit_id in started_run.units.values_list("pk", flat=True):
        execute_unit(unit_id, worker="test@host")
    with django_capture_on_commit_callbacks(execute=True):
        assert finalize_run(started_run.pk).status == "completed"
        assert finalize_run(started_run.pk) is None  # asked twice: finalized (and sent) once
    run_deliveries()
    (got,) = receiver.received
    assert got.verified and got.json["type"] == "evaluation_run.finished"
    assert got.json["data"] == {"run_id": started_run.pk, "study_ids": [subscribed.pk]}


def test_a_failed_run_sends_evaluation_run_failed(
    started_run, subscribed, receiver, run_deliveries, django_capture_on_commit_callbacks
):
    total = started_run.units.update(status=UnitStatus.FAILED, error="the model was down")
    EvaluationRun.objects.filter(pk=started_run.pk).update(units_failed=total, units_done=0)
    with django_capture_on_commit_callbacks(execute=True):
        assert finalize_run(started_run.pk).status == "failed"
    run_deliveries()
    (got,) = receiver.received
    assert got.verified and got.json["type"] == "evaluation_run.failed"
