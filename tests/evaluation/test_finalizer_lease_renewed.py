"""A live finalizer renews its lease while it builds the report (from a helper thread: the
report is one long synchronous step), so the workers' sweep never takes its run away."""

import time

import pytest

from evaluation import background
from evaluation.dispatch import FINALIZE_RUN
from evaluation.models import EvaluationRun, RunStatus
from evaluation.services import finalize
from evaluation.services.creation import create_run, start_run
from evaluation.services.finalize import finalize_run
from evaluation.services.units import execute_unit, sweep_running_runs

pytestmark = pytest.mark.django_db(transaction=True)  # the renewing thread has its own connection


def _lease(run_id: int):
    return EvaluationRun.objects.values_list("finalize_lease_until", flat=True).get(pk=run_id)


def test_the_sweep_leaves_a_live_finalizer_alone(run_request, demo_models, sent_tasks, monkeypatch):
    run = create_run(run_request(models=demo_models[:1], subsample="sample3"), actor_label="test")
    start_run(run.pk)
    for unit_id in run.units.values_list("pk", flat=True):
        execute_unit(unit_id, worker="w1@host")
    sent_tasks[FINALIZE_RUN].clear()
    monkeypatch.setattr(background, "heartbeat_interval_s", lambda: 0.01)
    real_build = finalize.build_report
    seen = {}

    def slow_build(scoring_run):
        first = _lease(scoring_run.pk)
        deadline = time.monotonic() + 10  # a state to wait for, bounded
        while _lease(scoring_run.pk) == first and time.monotonic() < deadline:
            time.sleep(0.01)
        seen["renewed"] = _lease(scoring_run.pk) > first
        sweep_running_runs()  # another worker's sweep meanwhile
        seen["status"] = EvaluationRun.objects.get(pk=scoring_run.pk).status
        return real_build(scoring_run)

    monkeypatch.setattr(finalize, "build_report", slow_build)
    done = finalize_run(run.pk)
    assert seen == {"renewed": True, "status": RunStatus.SCORING}
    assert sent_tasks[FINALIZE_RUN] == []
    assert done is not None and done.status == RunStatus.COMPLETED
