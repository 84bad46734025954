"""A study's withdrawal policy, applied in the withdrawal's transaction and recorded.

``exclude`` keeps the rows: every later release leaves the participant out (the release builder
skips withdrawn participants). ``erase`` also removes what the participant wrote and answered:
their messages and the replies to them, annotations, questionnaires, profile, drafts and the
evidence of safety signals. The conversation and turn rows stay as empty shells because QA
decisions and the audit log refer to them (and say that something existed and was erased).
Releases already frozen are immutable and are not rewritten.

A reply still streaming when the participant withdraws is stopped here too, under either policy:
its turn is locked before anything is erased and marked failed with ``WITHDREW_MID_REPLY``, so
the stream's end (``chat.record_reply``) stores nothing; without it, a reply arriving after the
erasure would write the model's answer (which repeats the participant's words) back into an
erased turn and open its annotation step and improver call.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import timezone

from annotations.models import (
    Conversation,
    ConversationWideAnswers,
    PanasResponse,
    Participant,
    ParticipantDraft,
    Turn,
    TurnAnnotation,
    TurnSignal,
    TurnStatus,
    WithdrawalPolicy,
)

# The error a streaming turn keeps when its participant withdrew; chat.record_reply reads it.
WITHDREW_MID_REPLY = "the participant withdrew while this reply was on its way"


def lock_replies_in_flight(conversations: Iterable[Conversation]) -> list[int]:
    """Lock the streaming turns of these conversations (after the conversations themselves, the
    order the chat's steps take): a reply's storing step that holds one commits first and its
    reply is then erased with the rest; one that comes later waits, then finds the mark."""
    return list(
        Turn.objects.select_for_update(no_key=True)
        .filter(conversation__in=list(conversations), status=TurnStatus.STREAMING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def stop_replies_in_flight(turn_ids: list[int]) -> int:
    """Mark the locked streaming turns failed for good (no retry: the participant is withdrawn).
    Runs after the policy, which clears every turn's error."""
    if not turn_ids:
        return 0
    return Turn.objects.filter(pk__in=turn_ids, status=TurnStatus.STREAMING).update(
        status=TurnStatus.FAILED,
        error=WITHDREW_MID_REPLY,
        finished_at=timezone.now(),
        lease_expires_at=None,
    )


def apply_withdrawal_policy(
    participant: Participant, policy: str | None = None
) -> dict[str, object]:
    """Apply the study's policy (or ``policy``: an erasure on request erases whatever the
    study's) to a participant just withdrawn; returns what the audit records."""
    policy = policy or participant.study.withdrawal_policy
    drafts, _ = ParticipantDraft.objects.filter(participant=participant).delete()
    if policy != WithdrawalPolicy.ERASE:
        return {"policy": policy, "drafts_deleted": drafts}
    conversations = Conversation.objects.filter(participant=participant)
    turns = Turn.objects.filter(conversation__in=conversations)
    annotations, _ = TurnAnnotation.objects.filter(turn__in=turns).delete()
    TurnSignal.objects.filter(turn__in=turns).update(evidence={})
    surveys = (
        PanasResponse.objects.filter(conversation__in=conversations).delete()[0]
        + ConversationWideAnswers.objects.filter(conversation__in=conversations).delete()[0]
    )
    erased_turns = turns.update(user_message="", model_reply="", error="", other={})
    Participant.objects.filter(pk=participant.pk).update(
        age=None, traits=[], goals=[], responses={}, profile_extra=None, profile_other={}
    )
    return {
        "policy": policy,
        "drafts_deleted": drafts,
        "turns_erased": erased_turns,
        "annotation_rows_deleted": annotations,
        "survey_rows_deleted": surveys,
    }
