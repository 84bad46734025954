"""Platform-level Celery tasks, and the workers' periodic sweep (registered here because this
module is imported by every worker, after Django is set up and before its bootsteps are built).

A leaf: nothing imports this module (``celery.py`` lists it in ``imports``; the heartbeat is
sent by name, ``attune_collect/dispatch.py``).
"""

from __future__ import annotations

import socket

from celery import shared_task

from annotations.audit_actions import AuditAction
from annotations.models import AuditEntry
from attune_collect.celery import app
from attune_collect.dispatch import HEARTBEAT
from attune_collect.sweep import PeriodicSweep


@shared_task(name=HEARTBEAT, acks_late=True)
def heartbeat(token: str) -> str:
    """Prove a worker is alive and reaches the database: writes one audit entry per token.

    Idempotent: a retried message with the same token writes nothing new.
    """
    AuditEntry.objects.get_or_create(
        action=AuditAction.SYSTEM_WORKER_HEARTBEAT,
        target_id=token,
        defaults={"actor_label": f"worker:{socket.gethostname()}", "data": {"token": token}},
    )
    return token


app.steps["worker"].add(PeriodicSweep)
