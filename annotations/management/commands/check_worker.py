"""python manage.py check_worker [--timeout S]: is a Celery worker consuming the queue?"""

from __future__ import annotations

import time
import uuid

from django.core.management.base import BaseCommand, CommandError

from annotations.audit_actions import AuditAction
from annotations.models import AuditEntry
from attune_collect.dispatch import HEARTBEAT, send


class Command(BaseCommand):
    help = "Send a heartbeat task and wait until a worker has written it to the database."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--timeout", type=float, default=15.0, help="Seconds to wait (default 15)"
        )

    def handle(self, *args, timeout: float, **options) -> None:
        token = uuid.uuid4().hex
        if not send(HEARTBEAT, token):
            raise CommandError("the Celery broker did not take the heartbeat (see the log above)")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            entry = AuditEntry.objects.filter(
                action=AuditAction.SYSTEM_WORKER_HEARTBEAT, target_id=token
            ).first()
            if entry is not None:
                self.stdout.write(f"worker answered: {entry.actor_label}")
                return
            time.sleep(0.2)
        raise CommandError(
            f"no Celery worker answered within {timeout:g} s: start one with "
            "`.venv/bin/celery -A attune_collect worker` (make demo starts one)"
        )
