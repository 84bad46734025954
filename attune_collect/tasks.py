"""Platform-level Celery tasks."""

from __future__ import annotations

import socket

from celery import shared_task


@shared_task(name="attune.heartbeat", acks_late=True)
def heartbeat(token: str) -> str:
    """Prove a worker is alive and reaches the database: writes one audit entry per token.

    Idempotent: a retried message with the same token writes nothing new.
    """
    from annotations.models import AuditEntry

    AuditEntry.objects.get_or_create(
        action="system.worker.heartbeat",
        target_id=token,
        defaults={"actor_label": f"worker:{socket.gethostname()}", "data": {"token": token}},
    )
    return token
