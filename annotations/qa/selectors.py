"""Read paths of QA: the review queue, and what the release exporter asks of QA.

For the release exporter (signatures are a contract):
- ``approved_conversations(queryset)``: the conversations whose final QA decision is approve;
- ``exclusion_reasons(queryset)``: excluded conversations counted by reason;
- ``agreement_summary(study)``: reviewer agreement figures for the datasheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from annotations.models import Conversation, ConversationState, ModelEndpoint, Study, Turn
from annotations.qa.access import limit_to_studies
from annotations.qa.agreement import agreement_report
from annotations.qa.models import (
    Decision,
    ExclusionReason,
    Flag,
    FlagStatus,
    Review,
    ReviewStatus,
    Severity,
)

VIEW_PERMISSION = "qa.view_conversationreview"


# --- for the release exporter ---------------------------------------------------------------


def approved_conversations(queryset: QuerySet[Conversation]) -> QuerySet[Conversation]:
    """The conversations of ``queryset`` whose final QA decision is approve."""
    return queryset.filter(
        qa_review__final_decision=Decision.APPROVE, qa_review__status=ReviewStatus.APPROVED
    ).exclude(state=ConversationState.EXCLUDED)


def exclusion_reasons(queryset: QuerySet[Conversation]) -> dict[str, int]:
    """Excluded conversations of ``queryset`` by reason (reasons with none left out), in list order."""
    counts = dict(
        queryset.filter(qa_review__status=ReviewStatus.EXCLUDED)
        .order_by()
        .values_list("qa_review__exclusion_reason")
        .annotate(n=Count("id"))
    )
    return {reason: counts[reason] for reason in ExclusionReason.values if counts.get(reason)}


def agreement_summary(study: Study) -> dict[str, Any]:
    """Kappa on decisions and alpha on flags over the study's double-reviewed conversations."""
    return agreement_report(study).summary()


# --- the review queue -----------------------------------------------------------------------

QUEUE_VIEWS: dict[str, str] = {
    "awaiting": "Awaiting my review",
    "second": "Awaiting a second review",
    "disagreement": "Disagreements",
    "decided": "Decided",
    "all": "All",
}


@dataclass(frozen=True)
class QueueFilters:
    view: str = "awaiting"
    study: str = ""  # slug
    flag_type: str = ""
    model: str = ""  # endpoint alias
    topic: str = ""  # topic category

    @classmethod
    def from_query(cls, query) -> QueueFilters:
        view = query.get("view", "awaiting")
        return cls(
            view=view if view in QUEUE_VIEWS else "awaiting",
            study=query.get("study", ""),
            flag_type=query.get("flag", ""),
            model=query.get("model", ""),
            topic=query.get("topic", ""),
        )

    def as_query(self) -> dict[str, str]:
        pairs = {
            "view": self.view,
            "study": self.study,
            "flag": self.flag_type,
            "model": self.model,
            "topic": self.topic,
        }
        return {k: v for k, v in pairs.items() if v}


def _count(queryset: QuerySet, field: str = "conversation") -> Coalesce:
    """A correlated COUNT subquery (cheaper than joins that multiply rows)."""
    counted = queryset.filter(**{field: OuterRef("pk")}).order_by().values(field)
    return Coalesce(
        Subquery(counted.annotate(n=Count("*")).values("n"), output_field=IntegerField()), Value(0)
    )


def review_queue(user, filters: QueueFilters) -> QuerySet[Conversation]:
    """Conversations for the queue, most severe open flags first, then oldest first."""
    queryset = limit_to_studies(
        Conversation.objects.filter(participant__is_preview=False), user, VIEW_PERMISSION
    )
    reviewed_by_me = Exists(Review.objects.filter(conversation=OuterRef("pk"), reviewer=user))
    awaiting_second = Q(qa_review__status=ReviewStatus.AWAITING_SECOND) & ~reviewed_by_me
    match filters.view:
        case "awaiting":
            queryset = queryset.filter(
                Q(qa_review__isnull=True)
                | Q(qa_review__status=ReviewStatus.PENDING)
                | awaiting_second,
                state=ConversationState.COMPLETED,
                participant__withdrawn=False,
            )
        case "second":
            queryset = queryset.filter(awaiting_second)
        case "disagreement":
            queryset = queryset.filter(qa_review__status=ReviewStatus.DISAGREEMENT)
        case "decided":
            queryset = queryset.filter(
                qa_review__status__in=[ReviewStatus.APPROVED, ReviewStatus.EXCLUDED]
            )
    if filters.study:
        queryset = queryset.filter(study__slug=filters.study)
    if filters.model:
        queryset = queryset.filter(model_endpoint__alias=filters.model)
    if filters.topic:
        queryset = queryset.filter(topic_category=filters.topic)
    open_flags = Flag.objects.filter(status=FlagStatus.OPEN)
    if filters.flag_type:
        # A semi-join (IN) rather than a correlated EXISTS: PostgreSQL then hashes the few
        # flagged ids once instead of probing the flag index once per conversation.
        flagged = open_flags.filter(flag_type=filters.flag_type).values("conversation_id")
        queryset = queryset.filter(pk__in=flagged)
    return (
        queryset.select_related("study", "model_endpoint", "qa_review")
        .annotate(
            n_turns=_count(Turn.objects.all()),
            n_open_flags=_count(open_flags),
            n_critical=_count(open_flags.filter(severity=Severity.CRITICAL)),
        )
        .order_by("-n_critical", "-n_open_flags", "started_at", "id")
    )


def open_flags_by_conversation(conversation_ids: list[int]) -> dict[int, list[Flag]]:
    """The open flags of a page of the queue, in one query."""
    grouped: dict[int, list[Flag]] = {i: [] for i in conversation_ids}
    for flag in Flag.objects.filter(
        conversation_id__in=conversation_ids, status=FlagStatus.OPEN
    ).only("id", "conversation_id", "flag_type", "severity", "summary"):
        grouped[flag.conversation_id].append(flag)
    return grouped


@dataclass(frozen=True)
class QueueOptions:
    studies: list[tuple[int, str, str]]  # id, slug, title
    models: list[str]
    topics: list[str]


def queue_options(user) -> QueueOptions:
    """Choices for the queue's filters, limited to the user's studies."""
    studies = limit_to_studies(Study.objects.all(), user, VIEW_PERMISSION, lookup="pk")
    conversations = limit_to_studies(Conversation.objects.all(), user, VIEW_PERMISSION)
    models = (
        ModelEndpoint.objects.filter(Exists(conversations.filter(model_endpoint=OuterRef("pk"))))
        .order_by("alias")
        .values_list("alias", flat=True)
    )
    topics = (
        conversations.exclude(topic_category="")
        .order_by("topic_category")
        .values_list("topic_category", flat=True)
        .distinct()
    )
    return QueueOptions(
        studies=list(studies.values_list("pk", "slug", "title")),
        models=list(models),
        topics=list(topics),
    )


def next_in_queue(user, filters: QueueFilters, after: int | None = None) -> int | None:
    """The id of the next conversation awaiting this user, for "decide and go on"."""
    queryset = review_queue(user, QueueFilters(**{**filters.__dict__, "view": "awaiting"}))
    if after is not None:
        queryset = queryset.exclude(pk=after)
    return queryset.values_list("pk", flat=True).first()
