"""Moving a conversation through its state machine (``ALLOWED_TRANSITIONS``), with an audit entry."""

from __future__ import annotations

from typing import Any

from annotations.models import ALLOWED_TRANSITIONS, Conversation
from annotations.services.audit import record_audit
from annotations.services.errors import FlowError


def move(
    conversation: Conversation,
    new_state: str,
    *,
    actor_label: str,
    fields: dict[str, Any] | None = None,
) -> None:
    """Change state (and ``fields``) or refuse with ``wrong_step``. Call inside a transaction."""
    old_state = conversation.state
    if new_state not in ALLOWED_TRANSITIONS[old_state]:
        raise FlowError(
            "wrong_step", f"This step is not open now (the conversation is {old_state})."
        )
    conversation.state = new_state
    for name, value in (fields or {}).items():
        setattr(conversation, name, value)
    conversation.save(update_fields=["state", "updated_at", *(fields or {})])
    record_audit("annotations.conversation.state", target=conversation, actor_label=actor_label,
                 data={"from": old_state, "to": new_state})  # fmt: skip
