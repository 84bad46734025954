"""Cancel and resume a run.

Cancelling stops new units at once (a claim needs a running run) and running units within a
heartbeat (they go back to the queue, their answered calls stay in the cache). Resuming puts
every unfinished unit back in the queue and sends it to the workers again: units that failed,
units a cancel stopped, and units whose worker is gone.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from annotations.audit_actions import AuditAction
from annotations.services.audit import record_audit
from evaluation import dispatch
from evaluation.models import EvaluationRun, EvaluationUnit, RunStatus, UnitStatus
from evaluation.services.errors import EvaluationError
from evaluation.services.units import requeue_lapsed_units


@transaction.atomic
def cancel_run(
    run: EvaluationRun,
    *,
    actor: User | None = None,
    actor_label: str | None = None,
) -> EvaluationRun:
    cancelled = EvaluationRun.objects.filter(
        pk=run.pk, status__in=[RunStatus.QUEUED, RunStatus.RUNNING]
    ).update(status=RunStatus.CANCELLED, finished_at=timezone.now())
    run.refresh_from_db()
    if not cancelled:
        raise EvaluationError(f"{run} is {run.get_status_display().lower()}: nothing to cancel")
    record_audit(
        AuditAction.EVALUATION_RUN_CANCEL,
        target=run,
        actor=actor,
        actor_label=actor_label,
        data={"units_done": run.units_done, "units_total": run.units_total},
    )
    return run


def can_resume(run: EvaluationRun) -> bool:
    return run.status in (RunStatus.CANCELLED, RunStatus.FAILED, RunStatus.RUNNING) or (
        run.status == RunStatus.COMPLETED and run.units_failed > 0
    )


@transaction.atomic
def resume_run(
    run: EvaluationRun,
    *,
    actor: User | None = None,
    actor_label: str | None = None,
) -> EvaluationRun:
    """Queue every unfinished unit again, with a fresh allowance of failures, and send them.

    A run resumed from ``manage.py evaluate --inline`` continues on the Celery workers.
    """
    run = EvaluationRun.objects.select_for_update().get(pk=run.pk)
    if not can_resume(run):
        raise EvaluationError(f"{run} is {run.get_status_display().lower()}: nothing to resume")
    lapsed = requeue_lapsed_units(run)
    failed = run.units.filter(status=UnitStatus.FAILED).update(status=UnitStatus.QUEUED)
    EvaluationUnit.objects.filter(run=run, status=UnitStatus.QUEUED).update(failures=0)
    EvaluationRun.objects.filter(pk=run.pk).update(
        status=RunStatus.RUNNING,
        inline=False,
        units_failed=F("units_failed") - failed,
        error="",
        started_at=run.started_at or timezone.now(),
        finished_at=None,
    )
    run.refresh_from_db()
    queued = list(run.units.filter(status=UnitStatus.QUEUED).values_list("pk", flat=True))
    record_audit(
        AuditAction.EVALUATION_RUN_RESUME,
        target=run,
        actor=actor,
        actor_label=actor_label,
        data={"queued": len(queued), "failed_before": failed, "lapsed": len(lapsed)},
    )
    dispatch.enqueue_units(run, queued)
    if run.units_finished >= run.units_total:
        dispatch.enqueue_finalize(run)  # nothing left to run: only the report failed before
    return run
