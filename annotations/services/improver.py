"""The "improved" alternate reply: written in the background by the study's improver model
while the participant annotates, then offered to them in the A/B comparison.

``run_improver`` is what the Celery task does (annotations/tasks.py). It is idempotent: an
annotation whose improved reply is no longer pending is left alone, so a redelivered task
(acks late) costs at most one model call and never overwrites a stored reply.

A reply that arrives after the comparison's limit (annotation_flow.improved_reply_timeout) is
still stored, marked ``late``: the participant was already told the comparison is unavailable
(or submitted without it), and it stays so.

A worker takes the call under a lease (``improver_lease_until``), so a duplicate message
costs no second model call while it runs. A message lost to a broker error is sent again by
the workers' sweep (``sweep_improved_replies``) while the comparison can still reach the
participant; past the window nothing is sent again (the participant was told it is
unavailable), but nothing marks the reply given up either, so a late result is still stored.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from annotations import dispatch
from annotations.audit_actions import AuditAction
from annotations.models import (
    ConversationState,
    ImprovedStatus,
    Turn,
    TurnAnnotation,
    TurnStatus,
)
from annotations.services import safety
from annotations.services.annotation_flow import (
    improved_reply_overdue,
    improved_reply_timeout,
    improver_resend_after,
)
from annotations.services.audit import record_audit
from annotations.services.model_configs import improver_config_of
from attune_collect.dispatch import resend_owed
from attune_collect.llm import Completion, EndpointConfig, GatewayError, default_gateway

IMPROVER_INSTRUCTIONS = (
    "You help with a research study on emotionally supportive conversations. Below is a "
    "conversation between a participant and an assistant. Rewrite the assistant's last reply "
    "so that it responds better to how the participant feels: accurate about their emotions, "
    "warm without being pushy, and about the same length. Never name any company or model. "
    "Answer with the rewritten reply only."
)


def improver_messages(turn: Turn) -> list[dict[str, str]]:
    """The improver's prompt: the transcript in the system message, the reply to rewrite last.

    The reply is the last thing in the prompt after an "Original reply:" label, which the
    offline demo improver also understands.
    """
    earlier = (
        Turn.objects.filter(
            conversation_id=turn.conversation_id, number__lte=turn.number, status=TurnStatus.DONE
        )
        .order_by("number")
        .values_list("number", "user_message", "model_reply")
    )
    transcript = []
    for number, user_message, reply in earlier:
        transcript.append(f"Participant: {user_message}")
        if number < turn.number:
            transcript.append(f"Assistant: {reply}")
    system = IMPROVER_INSTRUCTIONS + "\n\nConversation:\n" + "\n".join(transcript)
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": f"Original reply: {turn.model_reply}"},
    ]


def run_improver(turn_id: int) -> str:
    """Write the improved reply for a turn. Returns what happened: ``ready``, ``skipped`` (not
    pending any more), or ``failed``. Raises GatewayError when a retry may succeed."""
    annotation = (
        TurnAnnotation.objects.select_related(
            "turn__conversation__model_config", "improver_endpoint"
        )
        .filter(turn_id=turn_id)
        .first()
    )
    if annotation is None or annotation.improved_status != ImprovedStatus.PENDING:
        return "skipped"
    if annotation.turn.conversation.state == ConversationState.ABANDONED:
        # Its participant withdrew after the reply was stored: no model call on their words.
        record_improver_failure(turn_id, "the participant withdrew")
        return "skipped"
    if annotation.improver_endpoint is None:  # a pending reply always names its improver
        raise ValueError(f"turn {turn_id}: a pending improved reply without an improver")
    endpoint = improver_config_of(annotation.turn.conversation, annotation.improver_endpoint)
    if not _claim(turn_id, endpoint):
        return "skipped"  # another worker is calling the improver for this turn
    messages = improver_messages(annotation.turn)
    try:
        completion = asyncio.run(default_gateway().complete(endpoint, messages))
    except GatewayError as error:
        if error.retryable:
            raise
        record_improver_failure(turn_id, error.message)
        return "failed"
    return "ready" if record_improved_reply(turn_id, completion) else "skipped"


def _claim(turn_id: int, endpoint: EndpointConfig) -> bool:
    """Take the improver call while the reply is pending and no live worker holds it, for as
    long as the gateway may take (every attempt's timeout)."""
    now = timezone.now()
    call = timedelta(seconds=endpoint.timeout_s * (endpoint.max_retries + 1))
    return bool(
        TurnAnnotation.objects.filter(
            Q(improver_lease_until__isnull=True) | Q(improver_lease_until__lt=now),
            turn_id=turn_id,
            improved_status=ImprovedStatus.PENDING,
        ).update(improver_lease_until=now + call)
    )


def retry_later(turn_id: int, delay_s: float) -> None:
    """The task retries in ``delay_s``: give up the call's lease, and let the sweep send the
    task again only if the retry has not started by its time (its message lost too)."""
    TurnAnnotation.objects.filter(turn_id=turn_id, improved_status=ImprovedStatus.PENDING).update(
        improver_lease_until=None,
        improver_resend_at=timezone.now() + timedelta(seconds=delay_s) + improver_resend_after(),
    )


def sweep_improved_replies(now: datetime | None = None) -> list[int]:
    """Send again the improved replies still owed within the comparison's window whose task no
    worker took by its time (its message lost to a broker error or a killed worker); the
    turns sent. Past the window the participant has been told the comparison is unavailable:
    nothing is sent, but the reply stays pending, so a worker's late result is kept."""
    now = now or timezone.now()
    owed = TurnAnnotation.objects.filter(
        Q(improver_lease_until__isnull=True) | Q(improver_lease_until__lt=now),
        improved_status=ImprovedStatus.PENDING,
        started_at__gt=now - improved_reply_timeout(),
        improver_resend_at__lt=now,
    )
    return resend_owed(
        owed,
        "improver_resend_at",
        dispatch.improve_reply,
        key="turn_id",
        now=now,
        again_after=improver_resend_after(),
    )


def _pending(turn_id: int) -> TurnAnnotation | None:
    """The turn's annotation, locked, if its improved reply is still awaited (else None)."""
    annotation = TurnAnnotation.objects.select_for_update().get(turn_id=turn_id)
    return annotation if annotation.improved_status == ImprovedStatus.PENDING else None


@transaction.atomic
def record_improved_reply(turn_id: int, completion: Completion) -> bool:
    annotation = _pending(turn_id)
    if annotation is None:
        return False
    # Past the limit the comparison was skipped (or will be): the reply is kept, never shown.
    # A submit that skipped it for want of this reply decided so already, whatever the clocks.
    late = improved_reply_overdue(annotation) or bool(
        annotation.improved_meta.get("improved_timed_out")
    )
    annotation.llm_improved_reply = completion.text
    annotation.improved_status = ImprovedStatus.READY
    annotation.improved_meta = {
        **annotation.improved_meta,
        **({"late": True} if late else {}),
        "model": completion.model,
        "latency_ms": round(completion.latency_ms),
        "prompt_tokens": completion.prompt_tokens,
        "completion_tokens": completion.completion_tokens,
        "cost_usd": completion.cost_usd,
        "attempts": completion.attempts,
    }
    annotation.save(update_fields=["llm_improved_reply", "improved_status", "improved_meta"])
    record_audit(
        AuditAction.ANNOTATION_IMPROVED,
        target=annotation,
        actor_label="system",
        data={
            "turn_id": turn_id,
            "latency_ms": annotation.improved_meta["latency_ms"],
            "late": late,
        },
    )
    safety.check_reply(annotation.turn, completion.text, "improved_reply")
    return True


@transaction.atomic
def record_improver_failure(turn_id: int, message: str) -> bool:
    """Give up on the improved reply: the participant's comparison is skipped, nothing waits."""
    annotation = _pending(turn_id)
    if annotation is None:
        return False
    annotation.improved_status = ImprovedStatus.FAILED
    annotation.improved_meta = {**annotation.improved_meta, "error": message[:500]}
    annotation.save(update_fields=["improved_status", "improved_meta"])
    record_audit(
        AuditAction.ANNOTATION_IMPROVER_FAILED,
        target=annotation,
        actor_label="system",
        data={"turn_id": turn_id},
    )
    return True
