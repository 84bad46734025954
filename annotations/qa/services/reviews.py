"""Review decisions: approve, exclude, ask for a second review; blind double review; adjudication.

The flow, per conversation:
- single review: the first reviewer's approve/exclude is final; "needs second review" hands it
  to another reviewer, who sees the first note and decides (or escalates to adjudication);
- double review (a configurable share, picked in ``intake``): two reviewers decide blind to
  each other; the same decision (and, to exclude, the same reason) is final, anything else goes
  to adjudication;
- adjudication: a user with ``qa.adjudicate`` makes the final decision.
Excluding moves the conversation to "excluded" through the state machine; nothing is deleted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from annotations.audit_actions import AuditAction
from annotations.models import Conversation, ConversationState
from annotations.qa.flags import flag_label
from annotations.qa.models import (
    ConversationReview,
    Decision,
    ExclusionReason,
    Flag,
    FlagStatus,
    FlagVerdict,
    Review,
    ReviewStage,
    ReviewStatus,
    Severity,
)
from annotations.qa.services import QAError
from annotations.qa.services.flagging import set_flag_status
from annotations.qa.services.intake import open_reviews
from annotations.qa.services.queue_events import emit_if_queue_empty
from annotations.services.audit import record_audit
from annotations.services.conversation_states import move
from annotations.services.errors import FlowError

VERDICTS = (FlagStatus.CONFIRMED, FlagStatus.DISMISSED)


@dataclass(frozen=True)
class ReviewInput:
    decision: str
    exclusion_reason: str = ""
    note: str = ""
    flag_verdicts: Mapping[int, str] = field(default_factory=dict)


@transaction.atomic
def submit_review(
    conversation: Conversation, reviewer: User, data: ReviewInput
) -> ConversationReview:
    """A reviewer's decision: the first or second review of a conversation."""
    conversation, qa = _lock(conversation)
    _validate(conversation, data, allow_second_review=True)
    earlier = list(conversation.qa_reviews.exclude(stage=ReviewStage.ADJUDICATION))
    if qa.status == ReviewStatus.PENDING and not earlier:
        stage = ReviewStage.FIRST
    elif qa.status == ReviewStatus.AWAITING_SECOND and len(earlier) == 1:
        if earlier[0].reviewer_id == reviewer.pk:
            raise QAError(
                "You already reviewed this conversation; the second review needs another reviewer."
            )
        stage = ReviewStage.SECOND
    else:
        raise QAError(
            f"This conversation is {qa.get_status_display().lower()}: it takes no review now."
        )
    _refuse_approval_over_open_critical_flags(conversation, data)
    review = _write_review(conversation, reviewer, stage, data, blind=qa.double_review)

    if stage == ReviewStage.FIRST:
        if qa.double_review or data.decision == Decision.SECOND_REVIEW:
            _set_status(qa, ReviewStatus.AWAITING_SECOND)
        else:
            _finalise(qa, conversation, review, reviewer, verdicts_from=[review])
        return qa
    first = earlier[0]
    if qa.double_review:
        agree = (
            first.decision == review.decision != Decision.SECOND_REVIEW
            and first.exclusion_reason == review.exclusion_reason
            and (review.decision != Decision.APPROVE or _same_critical_verdicts(first, review))
        )
        verdicts_from = [first, review]
    else:  # an escalated single review: the second reviewer decides unless they escalate too
        agree = review.decision != Decision.SECOND_REVIEW
        verdicts_from = [review]
    if agree:
        _finalise(qa, conversation, review, reviewer, verdicts_from=verdicts_from)
    else:
        _set_status(qa, ReviewStatus.DISAGREEMENT)
    return qa


@transaction.atomic
def adjudicate(
    conversation: Conversation, adjudicator: User, data: ReviewInput
) -> ConversationReview:
    """The final decision on a conversation the reviewers did not agree on."""
    conversation, qa = _lock(conversation)
    if qa.status != ReviewStatus.DISAGREEMENT:
        raise QAError(
            f"This conversation is {qa.get_status_display().lower()}: there is nothing to adjudicate."
        )
    _validate(conversation, data, allow_second_review=False)
    _refuse_approval_over_open_critical_flags(conversation, data)
    review = _write_review(conversation, adjudicator, ReviewStage.ADJUDICATION, data, blind=False)
    earlier = list(conversation.qa_reviews.exclude(stage=ReviewStage.ADJUDICATION))
    _finalise(qa, conversation, review, adjudicator, verdicts_from=earlier, decisive=review)
    return qa


def _lock(conversation: Conversation) -> tuple[Conversation, ConversationReview]:
    conversation = Conversation.objects.select_for_update().get(pk=conversation.pk)
    open_reviews([conversation])
    return conversation, ConversationReview.objects.select_for_update().get(
        conversation=conversation
    )


def _validate(conversation: Conversation, data: ReviewInput, *, allow_second_review: bool) -> None:
    if conversation.state != ConversationState.COMPLETED:
        raise QAError(
            f"Only completed conversations are reviewed; this one is {conversation.state}."
        )
    allowed = set(Decision.values) - (set() if allow_second_review else {Decision.SECOND_REVIEW})
    if data.decision not in allowed:
        raise QAError(f"Choose one of: {', '.join(sorted(allowed))}.")
    if data.decision == Decision.EXCLUDE:
        if data.exclusion_reason not in ExclusionReason.values:
            raise QAError("Excluding needs a reason from the list.")
        if data.exclusion_reason == ExclusionReason.OTHER and not data.note.strip():
            raise QAError("The reason 'other' needs a note.")
    elif data.exclusion_reason:
        raise QAError("Only an exclusion takes a reason.")
    open_flags = set(
        Flag.objects.filter(conversation=conversation, status=FlagStatus.OPEN).values_list(
            "pk", flat=True
        )
    )
    for flag_id, verdict in data.flag_verdicts.items():
        if flag_id not in open_flags:
            raise QAError(f"Flag {flag_id} is not an open flag of this conversation.")
        if verdict not in VERDICTS:
            raise QAError(f"A flag verdict is confirmed or dismissed, not {verdict!r}.")


def _refuse_approval_over_open_critical_flags(
    conversation: Conversation, data: ReviewInput
) -> None:
    """A critical flag (a participant at risk) needs a human verdict before the conversation
    can be approved: confirmed or dismissed earlier, or in this very review. Checked after
    the conversation's status, so a decided conversation still says it takes no review."""
    if data.decision != Decision.APPROVE:
        return
    unjudged = [f for f in _open_critical_flags(conversation) if f.pk not in data.flag_verdicts]
    if unjudged:
        labels = ", ".join(sorted({flag_label(f.flag_type) for f in unjudged}))
        raise QAError(
            f"This conversation has an open critical flag ({labels}): confirm or dismiss it "
            "before approving."
        )


def _open_critical_flags(conversation: Conversation):
    return Flag.objects.filter(
        conversation=conversation, status=FlagStatus.OPEN, severity=Severity.CRITICAL
    )


def _same_critical_verdicts(first: Review, second: Review) -> bool:
    """Two approvals agree only if they judged every open critical flag the same way;
    otherwise the flag would stay open on an approved conversation."""
    critical = set(_open_critical_flags(first.conversation).values_list("pk", flat=True))
    by_review: dict[int, dict[int, str]] = defaultdict(dict)
    for verdict in FlagVerdict.objects.filter(review__in=[first, second], flag_id__in=critical):
        by_review[verdict.review_id][verdict.flag_id] = verdict.verdict
    return by_review[first.pk] == by_review[second.pk]


def _write_review(
    conversation: Conversation,
    reviewer: User,
    stage: str,
    data: ReviewInput,
    *,
    blind: bool,
) -> Review:
    review = Review.objects.create(
        conversation=conversation,
        reviewer=reviewer,
        stage=stage,
        blind=blind,
        decision=data.decision,
        exclusion_reason=data.exclusion_reason,
        note=data.note.strip(),
    )
    FlagVerdict.objects.bulk_create(
        [
            FlagVerdict(review=review, flag_id=fid, verdict=v)
            for fid, v in data.flag_verdicts.items()
        ]
    )
    record_audit(
        f"qa.review.{stage}",
        target=review,
        actor=reviewer,
        data={
            "conversation": conversation.pk,
            "decision": review.decision,
            "reason": review.exclusion_reason,
            "note": review.note,
            "blind": blind,
            "flag_verdicts": {str(k): v for k, v in data.flag_verdicts.items()},
        },
    )
    return review


def _set_status(qa: ConversationReview, status: str) -> None:
    qa.status = status
    qa.save(update_fields=["status", "updated_at"])


def _finalise(
    qa: ConversationReview,
    conversation: Conversation,
    deciding: Review,
    actor: User,
    *,
    verdicts_from: Sequence[Review],
    decisive: Review | None = None,
) -> None:
    excluded = deciding.decision == Decision.EXCLUDE
    qa.status = ReviewStatus.EXCLUDED if excluded else ReviewStatus.APPROVED
    qa.final_decision = deciding.decision
    qa.exclusion_reason = deciding.exclusion_reason
    qa.note = deciding.note
    qa.decided_by = actor
    qa.decided_at = timezone.now()
    qa.save()
    if excluded:
        _exclude(conversation, actor, deciding.exclusion_reason)
    _apply_verdicts(conversation, verdicts_from, decisive, actor)
    emit_if_queue_empty(conversation.study_id)
    record_audit(
        AuditAction.QA_REVIEW_FINAL,
        target=qa,
        actor=actor,
        data={
            "conversation": conversation.pk,
            "decision": qa.final_decision,
            "reason": qa.exclusion_reason,
            "stage": deciding.stage,
        },
    )


def _exclude(conversation: Conversation, actor: User, reason: str) -> None:
    """Through the state machine's one transition function, under QA's own audit action."""
    try:
        move(
            conversation,
            ConversationState.EXCLUDED,
            actor=actor,
            audit_action=AuditAction.QA_CONVERSATION_EXCLUDE,
            audit_data={"reason": reason},
        )
    except FlowError:
        raise QAError(f"A {conversation.state} conversation cannot be excluded.") from None


def _apply_verdicts(
    conversation: Conversation,
    reviews: Sequence[Review],
    decisive: Review | None,
    actor: User,
) -> None:
    """Resolve open flags: the decisive verdict if any, else the reviewers' unanimous one.

    A flag the reviewers judged differently stays open (and shows as a flag disagreement).
    """
    by_flag: dict[int, dict[int, str]] = defaultdict(dict)
    all_reviews = [*reviews, *([decisive] if decisive else [])]
    for verdict in FlagVerdict.objects.filter(review__in=all_reviews):
        by_flag[verdict.flag_id][verdict.review_id] = verdict.verdict
    for flag in Flag.objects.filter(conversation=conversation, status=FlagStatus.OPEN):
        given = by_flag.get(flag.pk, {})
        status: str | None
        if decisive is not None and decisive.pk in given:
            status = given[decisive.pk]
        else:
            values = {
                v for review_id, v in given.items() if decisive is None or review_id != decisive.pk
            }
            status = values.pop() if len(values) == 1 else None
        if status is not None:
            set_flag_status(flag, status, actor, "verdict of the review")
