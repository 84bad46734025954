"""Sending Celery tasks by name: how every service hands work to a worker.

Services never import a task module (a task module imports its service, so that would be a
cycle, and a web process has no need to load the worker's code). Each app names its tasks in
its own dispatch module (``annotations/dispatch.py``, ``evaluation/dispatch.py``; the platform's
below), and ``tests/foundation/test_task_names.py`` checks that every name is a task the
workers register.

A message is sent after the surrounding transaction commits (the worker must see what the
transaction wrote), and a broker error at that moment is logged, never raised: the caller's
transaction is already committed, so an exception could only break a response or an event
stream whose work is done. What such an error loses, the workers' periodic sweep sends again
(``attune_collect/sweep.py``): every task kind has a state in the database that says it is
still owed.
"""

from __future__ import annotations

import logging
from functools import partial

from django.db import transaction

from attune_collect.celery import app as celery_app

logger = logging.getLogger(__name__)

HEARTBEAT = "attune.heartbeat"  # attune_collect/tasks.py


def send(name: str, *args: int | str, queue: str | None = None, countdown: float = 0) -> bool:
    """Send one task now; False (and a logged error) when the broker cannot take it."""
    try:
        # None, as when left out: the default queue, no delay
        celery_app.send_task(
            name, args=list(args), queue=queue or None, countdown=countdown or None
        )
    except Exception:  # any broker or network error: the sweep sends it again later
        logger.error(
            "could not send task %s%r to the broker; the periodic sweep sends it again",
            name,
            tuple(args),
            exc_info=True,
        )
        return False
    return True


def send_on_commit(
    name: str, *args: int | str, queue: str | None = None, countdown: float = 0
) -> None:
    """``send`` once the surrounding transaction commits (at once outside a transaction)."""
    transaction.on_commit(partial(send, name, *args, queue=queue, countdown=countdown))
