"""Creating a run stores it with one unit per (model, conversation, mode), audits, and queues
its start after commit; starting it (the task body) happens once and fans out every unit."""

import pytest
from django.db import IntegrityError, transaction

from annotations.models import AuditEntry
from evaluation.models import EvaluationRun, EvaluationUnit, RunStatus, UnitStatus
from evaluation.services.creation import create_run, start_run

pytestmark = pytest.mark.django_db


def test_create_stores_units_audits_and_queues_after_commit(
    run_request, researcher, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        run = create_run(run_request(modes=("default", "omniscient")), actor=researcher)
    assert run.status == RunStatus.QUEUED and run.units_total == 24
    assert run.release_hash == run.release.content_hash and run.created_by == researcher
    assert run.units.count() == 24 and set(run.units.values_list("status", flat=True)) == {"queued"}
    assert set(run.units.values_list("mode", flat=True)) == {"default", "omniscient"}
    entry = AuditEntry.objects.get(action="evaluation.run.create", target_id=str(run.pk))
    assert entry.actor_label == "user:researcher" and entry.data["units"] == 24
    assert len(callbacks) == 1


def test_start_happens_once_and_sends_every_queued_unit(
    run_request, django_capture_on_commit_callbacks
):
    run = create_run(run_request(), actor_label="test")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        start_run(run.pk)
    run.refresh_from_db()
    assert run.status == RunStatus.RUNNING and run.started_at is not None
    assert len(callbacks) == run.units_total  # one task per unit
    with django_capture_on_commit_callbacks(execute=False) as again:
        start_run(run.pk)  # a redelivered start message
    assert len(again) == run.units_total  # sent again: harmless, a unit runs once
    assert AuditEntry.objects.filter(action="evaluation.run.start").count() == 1


def test_an_inline_run_sends_nothing(run_request, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        run = create_run(run_request(), actor_label="test", inline=True)
        start_run(run.pk)
    assert callbacks == []


def test_database_constraints_hold_the_invariants(run_request):
    run = create_run(run_request(), actor_label="test")
    unit = run.units.first()
    duplicate = EvaluationUnit(
        run=run,
        endpoint=unit.endpoint,
        conversation_id=unit.conversation_id,
        source_file=unit.source_file,
        mode=unit.mode,
    )
    for broken in (
        lambda: duplicate.save(),
        lambda: EvaluationUnit.objects.filter(pk=unit.pk).update(status=UnitStatus.DONE),
        lambda: EvaluationUnit.objects.filter(pk=unit.pk).update(status=UnitStatus.RUNNING),
        lambda: EvaluationUnit.objects.filter(pk=unit.pk).update(mode="loud"),
        lambda: EvaluationRun.objects.filter(pk=run.pk).update(units_done=run.units_total + 1),
        lambda: EvaluationRun.objects.filter(pk=run.pk).update(status=RunStatus.COMPLETED),
        lambda: EvaluationRun.objects.filter(pk=run.pk).update(panas_strategy="guess"),
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            broken()
