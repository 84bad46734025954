"""The evaluation app's tasks, sent by name to the Celery workers after the surrounding
transaction commits (``attune_collect/dispatch.py``: a broker error is logged, and the workers'
sweep sends again what it lost).

A run made by ``manage.py evaluate --inline`` is executed by that process itself, through the
same services: for such runs nothing is sent to a queue.
"""

from __future__ import annotations

from collections.abc import Iterable

from attune_collect.config import attune_config
from attune_collect.dispatch import send_on_commit
from evaluation.models import EvaluationRun

START_RUN = "evaluation.start_run"  # evaluation/tasks.py
RUN_UNIT = "evaluation.run_unit"
FINALIZE_RUN = "evaluation.finalize_run"


def _send(name: str, object_id: int, countdown: float = 0) -> None:
    send_on_commit(name, object_id, queue=attune_config().evaluation_queue, countdown=countdown)


def enqueue_start(run: EvaluationRun) -> None:
    if not run.inline:
        _send(START_RUN, run.pk)


def enqueue_units(run: EvaluationRun, unit_ids: Iterable[int], countdown: float = 0) -> None:
    if not run.inline:
        for unit_id in unit_ids:
            _send(RUN_UNIT, unit_id, countdown=countdown)


def enqueue_finalize(run: EvaluationRun) -> None:
    if not run.inline:
        _send(FINALIZE_RUN, run.pk)
