"""Finish a run once its last unit has finished: score, compute statistics, write the report.

Every worker that finishes a unit may ask for this, and several may ask at the same moment;
the conditional update running -> scoring (only when every unit is done or failed) lets
exactly one of them through.

The finalizer holds the run under a lease (``finalize_lease_until``) that a helper thread
renews while the report is built; if its worker dies, the lease lapses and the workers' sweep
(``units.sweep_running_runs``) puts the run back to running and sends the finalization again.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db.models import F
from django.utils import timezone

from annotations.audit_actions import AuditAction
from annotations.services.audit import record_audit
from attune_collect.config import attune_config
from evaluation import background
from evaluation.background import beating
from evaluation.models import EvaluationRun, RunStatus
from evaluation.services.report import build_report
from webhooks.event_types import EventType
from webhooks.events import emit

logger = logging.getLogger(__name__)


def _lease_end() -> datetime:
    """A finalizer's lease: as long as a unit's, renewed as often (background.py)."""
    return timezone.now() + timedelta(seconds=attune_config().evaluation_unit_lease_s)


def finalize_run(run_id: int) -> EvaluationRun | None:
    """Build the report if this call wins the run's one finalization; else do nothing."""
    won = EvaluationRun.objects.filter(
        pk=run_id,
        status=RunStatus.RUNNING,
        units_total=F("units_done") + F("units_failed"),
    ).update(status=RunStatus.SCORING, finalize_lease_until=_lease_end())
    if not won:
        return None
    run = EvaluationRun.objects.select_related("release").get(pk=run_id)
    if run.units_done == 0:
        return _fail(run, "no unit finished: every unit failed (see the units' errors)")
    scoring = EvaluationRun.objects.filter(pk=run_id, status=RunStatus.SCORING)
    try:
        with beating(
            lambda: scoring.update(finalize_lease_until=_lease_end()),
            interval=background.heartbeat_interval_s(),
        ):
            folder = build_report(run)
    except Exception as exc:
        logger.exception("the report of evaluation run %s failed", run_id)
        return _fail(run, f"building the report failed: {type(exc).__name__}: {exc}")
    completed = scoring.update(
        status=RunStatus.COMPLETED,
        report_folder=str(folder),
        finished_at=timezone.now(),
        finalize_lease_until=None,
    )
    run.refresh_from_db()
    if completed:
        emit(EventType.EVALUATION_RUN_FINISHED, _study_ids(run), {"run_id": run.pk})
    record_audit(
        AuditAction.EVALUATION_RUN_COMPLETE,
        target=run,
        actor_label="worker",
        data={
            "units_done": run.units_done,
            "units_failed": run.units_failed,
            "calls_made": run.calls_made,
            "cost_usd": str(run.cost_usd),
            "report": str(folder),
        },
    )
    return run


def _study_ids(run: EvaluationRun) -> list[int]:
    return list(run.release.studies.values_list("pk", flat=True))


def _fail(run: EvaluationRun, error: str) -> EvaluationRun:
    failed = EvaluationRun.objects.filter(pk=run.pk, status=RunStatus.SCORING).update(
        status=RunStatus.FAILED, error=error, finished_at=timezone.now(), finalize_lease_until=None
    )
    run.refresh_from_db()
    if failed:
        emit(EventType.EVALUATION_RUN_FAILED, _study_ids(run), {"run_id": run.pk})
    record_audit(
        AuditAction.EVALUATION_RUN_FAIL, target=run, actor_label="worker", data={"error": error}
    )
    return run
