"""Finalization happens exactly once: not before the last unit, then by one caller only, even
when several workers ask at the same moment."""

import threading

import pytest

from annotations.models import AuditEntry
from evaluation.models import RunStatus
from evaluation.services.creation import create_run, start_run
from evaluation.services.finalize import finalize_run
from evaluation.services.units import execute_unit
from tests.threads import in_a_thread


def executed_run(run_request, demo_models, leave: int = 0):
    run = create_run(
        run_request(models=demo_models[:1], subsample="sample3"), actor_label="test", inline=True
    )
    start_run(run.pk)
    for unit_id in list(run.units.values_list("pk", flat=True))[leave:]:
        assert execute_unit(unit_id, worker="test@host").outcome == "done"
    run.refresh_from_db()
    return run


@pytest.mark.django_db
def test_not_before_the_last_unit_then_once(run_request, demo_models):
    run = executed_run(run_request, demo_models, leave=1)
    assert run.units_done == 2 and finalize_run(run.pk) is None  # one unit still queued
    execute_unit(run.units.filter(status="queued").get().pk, worker="test@host")

    finished = finalize_run(run.pk)
    assert finished is not None and finished.status == RunStatus.COMPLETED
    assert finalize_run(run.pk) is None  # a second request does nothing
    assert AuditEntry.objects.filter(action="evaluation.run.complete").count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_finalize_once(run_request, demo_models):
    run = executed_run(run_request, demo_models)
    barrier = threading.Barrier(4)
    results = []

    def finalize() -> None:
        barrier.wait()
        results.append(finalize_run(run.pk))

    threads = [in_a_thread(finalize) for _ in range(4)]
    for thread in threads:
        thread.join()
    assert len([r for r in results if r is not None]) == 1
    run.refresh_from_db()
    assert run.status == RunStatus.COMPLETED and run.report_folder
    assert AuditEntry.objects.filter(action="evaluation.run.complete").count() == 1
