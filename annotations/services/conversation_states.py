"""Moving a conversation through its state machine (``ALLOWED_TRANSITIONS``), with an audit entry.

``move`` is the one way a conversation's state changes: the participant's steps, withdrawal,
and QA's exclusion all call it, so the allowed transitions are checked in one place.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from annotations.audit_actions import AuditAction
from annotations.models import ALLOWED_TRANSITIONS, Conversation
from annotations.services.audit import record_audit
from annotations.services.errors import FlowError

STATE_CHANGE = AuditAction.CONVERSATION_STATE


def move(
    conversation: Conversation,
    new_state: str,
    *,
    actor_label: str | None = None,
    actor: User | None = None,
    fields: dict[str, Any] | None = None,
    audit_action: str = STATE_CHANGE,
    audit_data: dict[str, Any] | None = None,
) -> None:
    """Change state (and ``fields``) or refuse with ``wrong_step``. Call inside a transaction.

    The audit entry records ``from`` and ``to`` (plus ``audit_data``) under ``audit_action``:
    a caller with its own vocabulary (QA's ``qa.conversation.exclude``) names its action.
    """
    old_state = conversation.state
    if new_state not in ALLOWED_TRANSITIONS[old_state]:
        raise FlowError(
            "wrong_step", f"This step is not open now (the conversation is {old_state})."
        )
    conversation.state = new_state
    for name, value in (fields or {}).items():
        setattr(conversation, name, value)
    conversation.save(update_fields=["state", "updated_at", *(fields or {})])
    record_audit(
        audit_action,
        target=conversation,
        actor=actor,
        actor_label=actor_label,
        data={"from": old_state, "to": new_state, **(audit_data or {})},
    )
