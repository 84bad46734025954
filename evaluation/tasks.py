"""Celery tasks of evaluation runs: ids in, idempotent, acknowledged late. The work is in the
services; a task only says which worker is asking.

A message delivered twice is harmless: a run starts once, a unit is claimed by one worker at a
time and finished by its claim only, and a run is finalized by one conditional update. An id
that no longer exists (or belongs to another database sharing the broker) is ignored.
"""

from __future__ import annotations

import socket

from celery import shared_task

from attune_collect.celery import app
from evaluation.services.creation import start_run
from evaluation.services.finalize import finalize_run
from evaluation.services.units import execute_unit
from evaluation.worker_step import LapsedUnitSweeper


@shared_task(name="evaluation.start_run", acks_late=True, reject_on_worker_lost=True)
def start_run_task(run_id: int) -> str:
    """Mark the run running and send one task per queued unit."""
    run = start_run(run_id)
    return run.status if run is not None else "missing"


@shared_task(name="evaluation.run_unit", bind=True, acks_late=True, reject_on_worker_lost=True)
def run_unit_task(self, unit_id: int) -> str:
    worker = self.request.hostname or f"celery@{socket.gethostname()}"
    return execute_unit(unit_id, worker=worker).outcome


@shared_task(name="evaluation.finalize_run", acks_late=True, reject_on_worker_lost=True)
def finalize_run_task(run_id: int) -> str:
    run = finalize_run(run_id)
    return run.status if run is not None else "not finalized here"


# Workers import this module (task autodiscovery) before they build their bootsteps.
app.steps["worker"].add(LapsedUnitSweeper)
