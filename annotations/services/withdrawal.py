"""A study's withdrawal policy, applied in the withdrawal's transaction and recorded.

``exclude`` keeps the rows: every later release leaves the participant out (the release builder
skips withdrawn participants). ``erase`` also removes what the participant wrote and answered:
their messages and the replies to them, annotations, questionnaires, profile, drafts and the
evidence of safety signals. The conversation and turn rows stay as empty shells because QA
decisions and the audit log refer to them (and say that something existed and was erased).
Releases already frozen are immutable and are not rewritten.
"""

from __future__ import annotations

from annotations.models import (
    Conversation,
    ConversationWideAnswers,
    PanasResponse,
    Participant,
    ParticipantDraft,
    Turn,
    TurnAnnotation,
    TurnSignal,
    WithdrawalPolicy,
)


def apply_withdrawal_policy(participant: Participant) -> dict[str, object]:
    """Apply the study's policy to a participant just withdrawn; returns what the audit records."""
    policy = participant.study.withdrawal_policy
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
