"""Claiming a unit: of two (or eight concurrent) claims exactly one wins; a cancelled run's
units cannot be claimed; a claim whose lease lapsed can no longer finish the unit."""

import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from evaluation.background import CallTally
from evaluation.models import EvaluationRun, EvaluationUnit, RunStatus, UnitStatus
from evaluation.services.creation import create_run, start_run
from evaluation.services.units import _finish, claim_unit, requeue_lapsed_units
from tests.threads import in_a_thread


def running_run(run_request):
    run = create_run(run_request(), actor_label="test")
    start_run(run.pk)
    return run


@pytest.mark.django_db
def test_two_claims_one_wins(run_request):
    unit = running_run(run_request).units.first()
    first = claim_unit(unit.pk, worker="w1@host")
    assert first is not None and first.token == 1
    assert claim_unit(unit.pk, worker="w2@host") is None
    unit.refresh_from_db()
    assert unit.status == UnitStatus.RUNNING and unit.worker == "w1@host"
    assert unit.lease_until > timezone.now()


@pytest.mark.django_db(transaction=True)
def test_concurrent_claims_one_wins(run_request):
    unit = running_run(run_request).units.first()
    barrier = threading.Barrier(8)
    winners: list[str] = []

    def claim(name: str) -> None:
        barrier.wait(timeout=20)
        if claim_unit(unit.pk, worker=name) is not None:
            winners.append(name)

    # Each worker fails the test if its claim raised or never finished (tests/threads.py).
    workers = [in_a_thread(lambda name=f"w{i}@host": claim(name)) for i in range(8)]
    for worker in workers:
        worker.join()
    unit.refresh_from_db()
    assert len(winners) == 1 and unit.worker == winners[0] and unit.attempts == 1


@pytest.mark.django_db
def test_no_claim_on_a_cancelled_or_queued_run(run_request):
    run = create_run(run_request(), actor_label="test")
    unit = run.units.first()
    assert claim_unit(unit.pk, worker="w1") is None  # not started yet
    start_run(run.pk)
    EvaluationRun.objects.filter(pk=run.pk).update(status=RunStatus.CANCELLED)
    assert claim_unit(unit.pk, worker="w1") is None


@pytest.mark.django_db
def test_a_lapsed_claim_cannot_finish_the_unit(run_request):
    run = running_run(run_request)
    unit = run.units.first()
    stale = claim_unit(unit.pk, worker="slow@host")
    EvaluationUnit.objects.filter(pk=unit.pk).update(
        lease_until=timezone.now() - timedelta(seconds=1)
    )
    assert requeue_lapsed_units(run) == [unit.pk]
    fresh = claim_unit(unit.pk, worker="fast@host")
    assert fresh.token == 2

    assert _finish(stale, CallTally(), 0.0, error="late") == "skipped"
    unit.refresh_from_db()
    assert unit.status == UnitStatus.RUNNING and unit.worker == "fast@host"
    run.refresh_from_db()
    assert run.units_failed == 0 and run.units_done == 0
