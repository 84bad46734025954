"""The "QA queue empty" webhook event: the decision that leaves a study nothing to review."""

from __future__ import annotations

from django.db.models import Q

from annotations.models import Conversation, ConversationState, Study
from annotations.qa.models.review import OPEN_STATUSES
from webhooks.event_types import EventType
from webhooks.events import emit


def undecided(study_id: int):
    """The study's conversations that still await a QA decision (review, second review or
    adjudication): completed, of a real participant who has not withdrawn."""
    return Conversation.objects.filter(
        Q(qa_review__isnull=True) | Q(qa_review__status__in=OPEN_STATUSES),
        study_id=study_id,
        state=ConversationState.COMPLETED,
        participant__is_preview=False,
        participant__withdrawn=False,
    )


def emit_if_queue_empty(study_id: int) -> None:
    """Called in the transaction of a final decision. The study's row is locked first, so two
    reviewers deciding a study's last two conversations at once take turns: the second sees
    the first's decision committed, and exactly one of them finds the queue empty."""
    Study.objects.select_for_update().filter(pk=study_id).values_list("pk").first()
    if not undecided(study_id).exists():
        emit(EventType.QA_QUEUE_EMPTY, study_id, {"study_id": study_id})
