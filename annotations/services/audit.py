"""Writing audit entries. Services call ``record_audit`` inside their transaction, with an
action declared in ``AuditAction`` (annotations/audit_actions.py); any other is refused."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import models

from annotations.audit_actions import AuditAction, declared
from annotations.models import AuditEntry


def actor_label_for(user: User | None, fallback: str = "system") -> str:
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.get_username()}"
    return fallback


def record_audit(
    action: AuditAction | str,
    *,
    target: models.Model | None = None,
    actor: User | None = None,
    actor_label: str | None = None,
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    """Write one audit entry. ``action`` is a member of ``AuditAction`` or its value (a caller
    may build it, ``f"qa.review.{stage}"``); an undeclared one raises ``UndeclaredAuditAction``
    before anything is written."""
    action = declared(action).value  # a plain str, refused before anything is written
    return AuditEntry.objects.create(
        actor=actor if actor is not None and getattr(actor, "is_authenticated", False) else None,
        actor_label=actor_label or actor_label_for(actor),
        action=action,
        target_type=target._meta.label_lower if target is not None else "",
        target_id=str(target.pk) if target is not None else "",
        data=data or {},
    )
