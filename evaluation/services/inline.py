"""Run a whole run in the calling process (``manage.py evaluate --inline``): the same services
the Celery tasks call, one unit after another, then the same finalization."""

from __future__ import annotations

import time
from collections.abc import Callable

from evaluation.models import EvaluationRun, RunStatus, UnitStatus
from evaluation.services.creation import start_run
from evaluation.services.finalize import finalize_run
from evaluation.services.units import execute_unit, requeue_lapsed_units


def run_inline(
    run_id: int,
    *,
    worker: str,
    on_progress: Callable[[EvaluationRun], None] | None = None,
    poll_s: float = 1.0,
) -> EvaluationRun:
    start_run(run_id)
    while True:
        run = EvaluationRun.objects.get(pk=run_id)
        if run.status != RunStatus.RUNNING:
            break
        queued = list(run.units.filter(status=UnitStatus.QUEUED).values_list("pk", flat=True))
        if not queued:
            # Running units here belong to another process (or to a killed earlier one,
            # whose leases lapse): wait for them rather than finish without them.
            requeue_lapsed_units(run)
            if not run.units.filter(status__in=[UnitStatus.QUEUED, UnitStatus.RUNNING]).exists():
                break
            time.sleep(poll_s)
            continue
        for unit_id in queued:
            execute_unit(unit_id, worker=worker)
            if on_progress is not None:
                on_progress(EvaluationRun.objects.get(pk=run_id))
    finalize_run(run_id)
    return EvaluationRun.objects.get(pk=run_id)
