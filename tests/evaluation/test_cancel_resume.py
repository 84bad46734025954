"""Cancel stops a run (queued units are not claimed, a running unit stops at its next heartbeat
and goes back to the queue); resume queues every unfinished unit again and sends it."""

import threading
import time
from dataclasses import replace
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from annotations.models import AuditEntry
from evaluation.models import EvaluationRun, EvaluationUnit, RunStatus, UnitStatus
from evaluation.services.control import cancel_run, resume_run
from evaluation.services.creation import create_run, start_run
from evaluation.services.errors import EvaluationError
from evaluation.services.units import claim_unit, execute_unit


def started(run_request, **changes):
    run = create_run(run_request(**changes), actor_label="test")
    start_run(run.pk)
    run.refresh_from_db()
    return run


@pytest.mark.django_db
def test_cancel_then_no_claim_and_no_second_cancel(run_request, researcher):
    run = started(run_request)
    cancel_run(run, actor=researcher)
    assert run.status == RunStatus.CANCELLED and run.finished_at is not None
    assert execute_unit(run.units.first().pk, worker="w").outcome == "skipped"
    with pytest.raises(EvaluationError, match="nothing to cancel"):
        cancel_run(run)
    assert AuditEntry.objects.filter(action="evaluation.run.cancel", actor=researcher).exists()


@pytest.mark.django_db(transaction=True)
def test_a_running_unit_stops_at_its_next_heartbeat(
    run_request, demo_models, settings, monkeypatch
):
    settings.ATTUNE = replace(
        settings.ATTUNE, evaluation_unit_lease_s=1.0
    )  # heartbeat every 0.25 s
    monkeypatch.setenv("ATTUNE_DEMO_TOKEN_DELAY_MS", "50")  # slow demo answers: seconds per unit
    run = started(run_request, models=demo_models[:1])
    unit = run.units.first()
    outcome = []

    def work() -> None:
        try:
            outcome.append(execute_unit(unit.pk, worker="w@host").outcome)
        finally:
            connection.close()

    thread = threading.Thread(target=work)
    thread.start()
    deadline = time.monotonic() + 30
    while not EvaluationUnit.objects.filter(pk=unit.pk, status="running").exists():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    cancel_run(EvaluationRun.objects.get(pk=run.pk))
    thread.join(timeout=30)
    assert outcome == ["released"]
    unit.refresh_from_db()
    assert unit.status == UnitStatus.QUEUED and unit.output is None and unit.failures == 0


@pytest.mark.django_db
def test_resume_requeues_failed_cancelled_and_lapsed_units(
    run_request, django_capture_on_commit_callbacks
):
    run = started(run_request)
    units = list(run.units.order_by("pk"))
    EvaluationUnit.objects.filter(pk=units[0].pk).update(
        status=UnitStatus.FAILED, error="boom", failures=3
    )
    EvaluationRun.objects.filter(pk=run.pk).update(units_failed=1)
    claim_unit(units[1].pk, worker="dead@host")
    EvaluationUnit.objects.filter(pk=units[1].pk).update(
        lease_until=timezone.now() - timedelta(seconds=5)
    )
    cancel_run(run)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        resume_run(run)
    run.refresh_from_db()
    assert run.status == RunStatus.RUNNING and run.units_failed == 0 and run.finished_at is None
    assert set(run.units.values_list("status", flat=True)) == {UnitStatus.QUEUED}
    assert set(run.units.values_list("failures", flat=True)) == {0}
    assert len(callbacks) == run.units_total
    audit = AuditEntry.objects.get(action="evaluation.run.resume")
    assert audit.data == {"queued": run.units_total, "failed_before": 1, "lapsed": 1}


@pytest.mark.django_db
def test_a_finished_run_without_failures_cannot_be_resumed(run_request):
    run = started(run_request)
    EvaluationRun.objects.filter(pk=run.pk).update(
        status=RunStatus.COMPLETED, report_folder="/tmp/x", units_done=run.units_total
    )
    run.refresh_from_db()
    with pytest.raises(EvaluationError, match="nothing to resume"):
        resume_run(run)
