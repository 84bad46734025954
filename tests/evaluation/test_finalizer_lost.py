"""A run's finalization is never lost: a run whose finalizer died (left "scoring" under a lease
nobody renews) is put back and finished by the workers' sweep, and a finished run whose
finalize message was lost is sent again after the bound; each once, however many sweeps."""

from datetime import timedelta

import pytest
from django.utils import timezone

from annotations.models import AuditEntry
from evaluation.dispatch import FINALIZE_RUN
from evaluation.models import EvaluationRun, RunStatus
from evaluation.services import finalize
from evaluation.services.creation import create_run, start_run
from evaluation.services.finalize import finalize_run
from evaluation.services.units import FINALIZER_LOST, execute_unit, sweep_running_runs

pytestmark = pytest.mark.django_db


class WorkerKilled(BaseException):
    """What a killed worker amounts to here: the finalizer stops in the middle, unrecorded."""


@pytest.fixture
def sweep(django_capture_on_commit_callbacks):
    """One worker's sweep, its messages sent as after its commits."""

    def run() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            sweep_running_runs()

    return run


@pytest.fixture
def finished_run(
    run_request, demo_models, sent_tasks, django_capture_on_commit_callbacks
) -> EvaluationRun:
    """A run on the workers (not inline) whose units are all done: the finalization was sent."""
    run = create_run(run_request(models=demo_models[:1], subsample="sample3"), actor_label="test")
    start_run(run.pk)
    with django_capture_on_commit_callbacks(execute=True):
        for unit_id in run.units.values_list("pk", flat=True):
            assert execute_unit(unit_id, worker="w1@host").outcome == "done"
    assert sent_tasks[FINALIZE_RUN] == [run.pk]
    sent_tasks[FINALIZE_RUN].clear()
    return run


def _lapse(run: EvaluationRun) -> None:
    """Time passes: the lease runs out (a dead worker renews nothing)."""
    EvaluationRun.objects.filter(pk=run.pk).update(
        finalize_lease_until=timezone.now() - timedelta(seconds=1)
    )


def test_a_run_whose_finalizer_died_is_finished_by_the_sweep(
    finished_run, sent_tasks, sweep, monkeypatch
):
    def killed(run):
        raise WorkerKilled

    with monkeypatch.context() as patch:
        patch.setattr(finalize, "build_report", killed)
        with pytest.raises(WorkerKilled):
            finalize_run(finished_run.pk)
    finished_run.refresh_from_db()
    assert finished_run.status == RunStatus.SCORING

    sweep()  # the finalizer's lease is still running: it may be alive
    assert sent_tasks[FINALIZE_RUN] == []

    _lapse(finished_run)
    sweep()
    sweep()  # a second worker's sweep: nothing sent twice
    assert sent_tasks[FINALIZE_RUN] == [finished_run.pk]
    assert AuditEntry.objects.filter(action=FINALIZER_LOST).count() == 1

    done = finalize_run(finished_run.pk)  # what the worker that takes the message does
    assert done is not None and done.status == RunStatus.COMPLETED and done.report_folder
    assert done.finalize_lease_until is None


def test_a_lost_finalize_message_is_sent_again_after_the_bound(finished_run, sent_tasks, sweep):
    sweep()  # within the bound: the first message may still be on its way
    assert sent_tasks[FINALIZE_RUN] == []
    _lapse(finished_run)
    sweep()
    sweep()
    assert sent_tasks[FINALIZE_RUN] == [finished_run.pk]
    assert finalize_run(finished_run.pk).status == RunStatus.COMPLETED
