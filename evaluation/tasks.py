"""Celery tasks of evaluation runs: ids in, idempotent, acknowledged late. The work is in the
services; a task only says which worker is asking.

A message delivered twice is harmless: a run starts once, a unit is claimed by one worker at a
time and finished by its claim only, and a run is finalized by one conditional update. An id
that no longer exists (or belongs to another database sharing the broker) is ignored.

A leaf: nothing imports this module (services send by name, ``evaluation/dispatch.py``).
"""

from __future__ import annotations

import socket

from celery import shared_task

from evaluation.dispatch import FINALIZE_RUN, RUN_UNIT, START_RUN
from evaluation.services.creation import start_run
from evaluation.services.finalize import finalize_run
from evaluation.services.units import execute_unit


@shared_task(name=START_RUN, acks_late=True, reject_on_worker_lost=True)
def start_run_task(run_id: int) -> str:
    """Mark the run running and send one task per queued unit."""
    run = start_run(run_id)
    return run.status if run is not None else "missing"


@shared_task(name=RUN_UNIT, bind=True, acks_late=True, reject_on_worker_lost=True)
def run_unit_task(self, unit_id: int) -> str:
    worker = self.request.hostname or f"celery@{socket.gethostname()}"
    return execute_unit(unit_id, worker=worker).outcome


@shared_task(name=FINALIZE_RUN, acks_late=True, reject_on_worker_lost=True)
def finalize_run_task(run_id: int) -> str:
    run = finalize_run(run_id)
    return run.status if run is not None else "not finalized here"
