"""Review: approve the submissions of completed participants (the study's rule says whether a
QA approval is needed first), reject only with a reason a researcher typed.

Each decision is an intent first (``ReviewDecision``, unique per submission: two tabs make one),
sent by whoever claims it (a conditional update), and a decision whose sending was interrupted
is reconciled from the submission's status on Prolific before it is sent again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from annotations.models import (
    ApproveRule,
    Conversation,
    ConversationState,
    DecisionState,
    Participant,
    ProlificLink,
    ProlificSubmission,
    ReviewDecision,
)
from annotations.prolific.connection import client_for
from annotations.prolific.places import OPEN_STATES
from annotations.qa.models import ReviewStatus
from annotations.services.audit import actor_label_for, record_audit
from attune_collect.errors import ServiceError
from attune_collect.prolific.client import (
    APPROVED,
    AWAITING_REVIEW,
    MIN_REJECTION_MESSAGE,
    REJECTED,
    REJECTION_CATEGORIES,
    ProlificClient,
    ProlificError,
)

CLAIM = timedelta(minutes=5)  # a sender that died frees its claim after this
_TARGET = {ReviewDecision.APPROVE: APPROVED, ReviewDecision.REJECT: REJECTED}


class ProlificRefused(ServiceError):
    default_code = "prolific_refused"


@dataclass(frozen=True)
class Candidate:
    participant: Participant
    submission_id: str
    completed: int


def approval_candidates(link: ProlificLink) -> list[Candidate]:
    """Participants awaiting review on Prolific, with every conversation finished and at least
    one completed (and, under ``after_qa``, every completed one approved by QA), not yet
    decided."""
    decided = set(ReviewDecision.objects.filter(link=link).values_list("submission_id", flat=True))
    waiting = ProlificSubmission.objects.filter(
        link=link, status=AWAITING_REVIEW, participant__isnull=False
    ).select_related("participant")
    candidates = []
    for row in waiting.order_by("pk"):
        participant = row.participant
        assert participant is not None
        if row.submission_id in decided or participant.withdrawn or participant.place_freed_at:
            continue
        conversations = Conversation.objects.filter(participant=participant)
        if conversations.filter(state__in=OPEN_STATES).exists():
            continue
        completed = conversations.filter(state=ConversationState.COMPLETED)
        if not completed.exists():
            continue
        if (
            link.approve_rule == ApproveRule.AFTER_QA
            and completed.filter(
                ~Q(qa_review__status=ReviewStatus.APPROVED) | Q(qa_review__isnull=True)
            ).exists()
        ):
            continue
        candidates.append(Candidate(participant, row.submission_id, completed.count()))
    return candidates


def intend_approvals(link: ProlificLink, *, actor: User) -> int:
    """Record an approval intent for every candidate (nothing is sent yet)."""
    made = 0
    for candidate in approval_candidates(link):
        made += _intend(
            link,
            candidate.participant,
            candidate.submission_id,
            actor=actor,
            action=ReviewDecision.APPROVE,
        )
    return made


def intend_rejection(
    link: ProlificLink, participant: Participant, *, message: str, category: str, actor: User
) -> bool:
    """Record a rejection intent: only with a category and a message the researcher typed."""
    message = message.strip()
    if category not in REJECTION_CATEGORIES:
        raise ProlificRefused(
            "Choose one of Prolific's rejection categories.", field="rejection_category"
        )
    if len(message) < MIN_REJECTION_MESSAGE:
        raise ProlificRefused(
            f"Write the reason for the participant (at least {MIN_REJECTION_MESSAGE} characters).",
            field="message",
        )
    row = ProlificSubmission.objects.filter(link=link, participant=participant).first()
    if row is None:
        raise ProlificRefused("This participant has no Prolific submission (sync first).")
    return bool(
        _intend(
            link,
            participant,
            row.submission_id,
            actor=actor,
            action=ReviewDecision.REJECT,
            message=message,
            category=category,
        )
    )


def _intend(
    link: ProlificLink,
    participant: Participant,
    submission_id: str,
    *,
    actor: User,
    action: str,
    message: str = "",
    category: str = "",
) -> int:
    try:
        with transaction.atomic():
            decision = ReviewDecision.objects.create(
                link=link,
                participant=participant,
                submission_id=submission_id,
                action=action,
                message=message,
                rejection_category=category,
                decided_by=actor,
            )
            record_audit(
                f"prolific.submission.{action.lower()}.intended",
                target=decision,
                actor=actor,
                data={
                    "submission": submission_id,
                    "participant": participant.pseudonym,
                    "category": category,
                },
            )
    except IntegrityError:
        return 0  # decided already (another tab, another click): one decision per submission
    return 1


@dataclass
class SendResult:
    sent: int = 0
    reconciled: int = 0
    failed: int = 0


def _claim(decision_id: int, now) -> bool:
    open_claim = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    return bool(
        ReviewDecision.objects.filter(
            Q(pk=decision_id),
            Q(state=DecisionState.INTENDED) | Q(state=DecisionState.SENDING),
            open_claim,
        ).update(state=DecisionState.SENDING, claimed_until=now + CLAIM)
    )


def send_decisions(link: ProlificLink, *, client: ProlificClient | None = None) -> SendResult:
    """Send every owed decision once. A decision found SENDING (its sender died or failed) is
    first looked up on Prolific: already in the target status, it is done without a call."""
    result = SendResult()
    pending = ReviewDecision.objects.filter(
        link=link, state__in=(DecisionState.INTENDED, DecisionState.SENDING)
    ).order_by("pk")
    if not pending.exists():
        return result
    client = client or client_for(link)  # a missing token refuses before anything is claimed
    for decision in pending:
        was_sending = decision.state == DecisionState.SENDING
        if not _claim(decision.pk, timezone.now()):
            continue
        target = _TARGET[decision.action]
        try:
            if was_sending and client.submission(decision.submission_id).status == target:
                _finish(decision, reconciled=True)
                result.reconciled += 1
                continue
            if decision.action == ReviewDecision.APPROVE:
                client.approve(decision.submission_id)
            else:
                client.reject(
                    decision.submission_id,
                    message=decision.message,
                    category=decision.rejection_category,
                )
        except ProlificError as error:
            # Left SENDING, its claim released: the next run reconciles it before any resend.
            ReviewDecision.objects.filter(pk=decision.pk).update(
                error=str(error)[:500], claimed_until=None
            )
            result.failed += 1
            continue
        _finish(decision, reconciled=False)
        result.sent += 1
    return result


@transaction.atomic
def _finish(decision: ReviewDecision, *, reconciled: bool) -> None:
    now = timezone.now()
    ReviewDecision.objects.filter(pk=decision.pk).update(
        state=DecisionState.DONE, done_at=now, claimed_until=None, error=""
    )
    record_audit(
        f"prolific.submission.{decision.action.lower()}",
        target=decision,
        actor=decision.decided_by,
        actor_label=actor_label_for(decision.decided_by),
        data={
            "submission": decision.submission_id,
            "reconciled": reconciled,
            "category": decision.rejection_category,
        },
    )
