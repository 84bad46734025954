"""Freeing a participant's place: their open conversations abandoned (audited), the place
given back to the study (``participants.is_full`` no longer counts them). Idempotent: a place
already freed is left as it is, so a second sync or sweep changes nothing."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from annotations.models import (
    Conversation,
    ConversationState,
    Participant,
    ParticipantDraft,
    ProlificLink,
)
from annotations.services.audit import record_audit
from annotations.services.conversation_states import move
from annotations.services.withdrawal import lock_replies_in_flight, stop_replies_in_flight

OPEN_STATES = (
    ConversationState.CONSENTED,
    ConversationState.PROFILED,
    ConversationState.CHATTING,
    ConversationState.POST_SURVEY,
)
ABANDON_ACTION = "prolific.conversation.abandon"
FREED_ACTION = "prolific.place.freed"
IDLE = "idle"
SWEEP_BATCH = 200


@transaction.atomic
def free_place(participant_id: int, reason: str, *, actor_label: str) -> bool:
    """Free the participant's place for ``reason`` (a Prolific status, or ``idle``). Returns
    whether anything changed."""
    participant = (
        Participant.objects.select_for_update(of=("self",), no_key=True)
        .filter(pk=participant_id)
        .first()
    )
    if participant is None or participant.place_freed_at is not None or participant.is_preview:
        return False
    participant.place_freed_at = timezone.now()
    participant.place_freed_reason = reason[:40]
    participant.save(update_fields=["place_freed_at", "place_freed_reason"])
    conversations = list(
        Conversation.objects.select_for_update(no_key=True)
        .filter(participant=participant, state__in=OPEN_STATES)
        .order_by("pk")
    )
    in_flight = lock_replies_in_flight(conversations)
    for conversation in conversations:
        move(
            conversation,
            ConversationState.ABANDONED,
            actor_label=actor_label,
            audit_action=ABANDON_ACTION,
            audit_data={"reason": reason},
        )
    stopped = stop_replies_in_flight(in_flight)
    record_audit(
        FREED_ACTION,
        target=participant,
        actor_label=actor_label,
        data={
            "reason": reason,
            "conversations_abandoned": len(conversations),
            "replies_stopped": stopped,
        },
    )
    return True


def _last_activity():
    """A conversation's last sign of life: its own last write (a step), its turns' messages and
    replies, their annotations, the participant's drafts (saved as they type). A turn does not
    touch the conversation's row, so ``updated_at`` alone would call a chatting person idle."""
    drafts = (
        ParticipantDraft.objects.filter(participant=OuterRef("participant"))
        .order_by()
        .values("participant")
        .annotate(last=Max("updated_at"))
        .values("last")
    )
    signs = (
        Max("turns__started_at"),
        Max("turns__finished_at"),
        Max("turns__annotation__submitted_at"),
        Subquery(drafts),
    )
    # Greatest is NULL on SQLite when any argument is: each falls back to updated_at.
    return Greatest("updated_at", *(Coalesce(sign, "updated_at") for sign in signs))


def sweep_idle_conversations() -> int:
    """The workers' sweep step: conversations of a Prolific study idle past its bound are
    abandoned and their places freed (``ProlificLink.idle_abandon_minutes``; 0: never)."""
    freed = 0
    now = timezone.now()
    for link in ProlificLink.objects.filter(idle_abandon_minutes__gt=0).only(
        "study_id", "idle_abandon_minutes"
    ):
        cutoff = now - timedelta(minutes=link.idle_abandon_minutes)
        idle = (
            Conversation.objects.filter(
                study_id=link.study_id,
                state__in=OPEN_STATES,
                updated_at__lt=cutoff,  # indexed first cut; the activity below decides
                participant__is_preview=False,
                participant__place_freed_at__isnull=True,
            )
            .annotate(active_at=_last_activity())
            .filter(active_at__lt=cutoff)
            .order_by("updated_at")
            .values_list("participant_id", flat=True)[:SWEEP_BATCH]
        )
        for participant_id in set(idle):
            freed += free_place(participant_id, IDLE, actor_label="system:idle-sweep")
    return freed
