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
still owed, most of them a "resend at" time that ``resend_owed`` claims.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial

from django.db import transaction
from django.db.models import QuerySet

from attune_collect.celery import app as celery_app
from attune_collect.config import attune_config

logger = logging.getLogger(__name__)

HEARTBEAT = "attune.heartbeat"  # attune_collect/tasks.py


def send(name: str, *args: int | str, queue: str | None = None, countdown: float = 0) -> bool:
    """Send one task now; False (and a logged error) when the broker cannot take it."""
    try:
        # None, as when left out: the default queue, no delay. No result is ever awaited (the
        # work's state is in the database), so the sender does not subscribe to the task's
        # result channel (two Redis round trips per task).
        celery_app.send_task(
            name,
            args=list(args),
            queue=queue or None,
            countdown=countdown or None,
            ignore_result=True,
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
    # robust: whatever a send raises is logged and the other callbacks still run (send itself
    # never raises; this guards the commit of every caller all the same)
    transaction.on_commit(partial(send, name, *args, queue=queue, countdown=countdown), robust=True)


def resend_bound() -> timedelta:
    """How long work asked for may go untaken before the sweep asks again
    (``ATTUNE_UNCLAIMED_REQUEUE_S``): longer than a healthy queue ever makes it wait."""
    return timedelta(seconds=attune_config().unclaimed_requeue_s)


# A sweep sends at most this many of one kind: a long outage is worked off over a few sweeps
# rather than by one timer call that holds up the worker's event loop.
RESEND_BATCH = 200


def resend_owed(
    owed: QuerySet,
    marker: str,
    send: Callable[[int], None],
    *,
    key: str = "pk",
    now: datetime,
    again_after: timedelta,
) -> list[int]:
    """Send again the task of every row of ``owed`` (rows whose ``marker``, a "resend at"
    time, has passed): each is claimed by moving its marker on by ``again_after`` with a
    conditional update, so of several workers' sweeps exactly one sends it. Returns the
    ``key`` values sent (what ``send`` takes: the row's id, or the turn's)."""
    sent = []
    rows = owed.order_by(marker).values_list("pk", key, marker)[:RESEND_BATCH]
    for pk, value, was in rows:
        claimed = owed.model.objects.filter(pk=pk, **{marker: was}).update(
            **{marker: now + again_after}
        )
        if claimed:
            send(value)
            sent.append(value)
    return sent
