"""Finish a run once its last unit has finished: score, compute statistics, write the report.

Every worker that finishes a unit may ask for this, and several may ask at the same moment;
the conditional update running -> scoring (only when every unit is done or failed) lets
exactly one of them through.
"""

from __future__ import annotations

import logging

from django.db.models import F
from django.utils import timezone

from annotations.services.audit import record_audit
from evaluation.models import EvaluationRun, RunStatus
from evaluation.services.report import build_report

logger = logging.getLogger(__name__)


def finalize_run(run_id: int) -> EvaluationRun | None:
    """Build the report if this call wins the run's one finalization; else do nothing."""
    won = EvaluationRun.objects.filter(
        pk=run_id,
        status=RunStatus.RUNNING,
        units_total=F("units_done") + F("units_failed"),
    ).update(status=RunStatus.SCORING)
    if not won:
        return None
    run = EvaluationRun.objects.select_related("release").get(pk=run_id)
    if run.units_done == 0:
        return _fail(run, "no unit finished: every unit failed (see the units' errors)")
    try:
        folder = build_report(run)
    except Exception as exc:
        logger.exception("the report of evaluation run %s failed", run_id)
        return _fail(run, f"building the report failed: {type(exc).__name__}: {exc}")
    EvaluationRun.objects.filter(pk=run_id, status=RunStatus.SCORING).update(
        status=RunStatus.COMPLETED, report_folder=str(folder), finished_at=timezone.now()
    )
    run.refresh_from_db()
    record_audit(
        "evaluation.run.complete",
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


def _fail(run: EvaluationRun, error: str) -> EvaluationRun:
    EvaluationRun.objects.filter(pk=run.pk, status=RunStatus.SCORING).update(
        status=RunStatus.FAILED, error=error, finished_at=timezone.now()
    )
    run.refresh_from_db()
    record_audit("evaluation.run.fail", target=run, actor_label="worker", data={"error": error})
    return run
