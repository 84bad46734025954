"""Handing work to Celery workers, always after the surrounding transaction commits.

A run made by ``manage.py evaluate --inline`` is executed by that process itself, through the
same services: for such runs nothing is sent to a queue.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from evaluation import conf
from evaluation.models import EvaluationRun


def _send(task_name: str, *args: int, countdown: float | None = None) -> None:
    from evaluation import tasks  # the tasks import the services: import them late

    task = getattr(tasks, task_name)
    options: dict[str, object] = {}
    if conf.task_queue():
        options["queue"] = conf.task_queue()
    if countdown:
        options["countdown"] = countdown
    transaction.on_commit(lambda: task.apply_async(args, **options))


def enqueue_start(run: EvaluationRun) -> None:
    if not run.inline:
        _send("start_run_task", run.pk)


def enqueue_units(run: EvaluationRun, unit_ids: Iterable[int], countdown: float = 0) -> None:
    if not run.inline:
        for unit_id in unit_ids:
            _send("run_unit_task", unit_id, countdown=countdown)


def enqueue_finalize(run: EvaluationRun) -> None:
    if not run.inline:
        _send("finalize_run_task", run.pk)
