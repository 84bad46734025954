"""Which studies a model endpoint and a configuration snapshot belong to.

An endpoint belongs to every study that uses it or has used it: its model pool, its improver,
its moderation endpoint, the studies whose conversations talked to it or whose annotations'
improved replies it wrote, and the study it was made for (``created_for``). A study that
dropped it from its pool still has conversations, exports and pending improved replies that
name it, so past use counts. Evaluation runs do not make an endpoint a study's: they call it on
a release, they do not put it in front of a study's participants.

A configuration snapshot belongs to the studies of the conversations that ran under it.

Each link is an ``Exists`` subquery, so a filter never multiplies rows (an endpoint used by
many conversations is listed once) and the study access rules (``annotations.qa``) combine
them with the sets of studies a user may act in.
"""

from __future__ import annotations

from collections.abc import Collection

from django.db.models import Exists, OuterRef, Q, QuerySet

from annotations.models import Conversation, ModelEndpoint, Study, TurnAnnotation

_POOL = Study.model_pool.through


def _links(study_ids: Collection[int], *, outside: bool) -> list[Exists]:
    """One subquery per way an endpoint (``OuterRef("pk")``) is linked to one of
    ``study_ids``, or, ``outside``, to a study not among them."""
    ids = list(study_ids)

    def where(queryset: QuerySet, lookup: str) -> QuerySet:
        condition = {f"{lookup}__in": ids}
        return queryset.exclude(**condition) if outside else queryset.filter(**condition)

    endpoint = OuterRef("pk")
    return [
        Exists(where(_POOL.objects.filter(modelendpoint=endpoint), "study")),
        Exists(where(Study.objects.filter(improver_endpoint=endpoint), "pk")),
        Exists(where(Study.objects.filter(moderation_endpoint=endpoint), "pk")),
        Exists(where(Study.objects.filter(endpoints_made_for=endpoint), "pk")),
        Exists(where(Conversation.objects.filter(model_endpoint=endpoint), "study")),
        Exists(
            where(
                TurnAnnotation.objects.filter(improver_endpoint=endpoint),
                "turn__conversation__study",
            )
        ),
    ]


def _any(conditions: list[Exists]) -> Q:
    combined = Q()
    for condition in conditions:
        combined |= Q(condition)
    return combined


def endpoints_of_studies(queryset: QuerySet, study_ids: Collection[int]) -> QuerySet:
    """The endpoints of ``queryset`` that belong to at least one of ``study_ids``."""
    return queryset.filter(_any(_links(study_ids, outside=False)))


def endpoints_outside(queryset: QuerySet, study_ids: Collection[int]) -> QuerySet:
    """The endpoints of ``queryset`` that belong to some study not among ``study_ids``."""
    return queryset.filter(_any(_links(study_ids, outside=True)))


def endpoint_study_ids(endpoint: ModelEndpoint) -> frozenset[int]:
    """Every study ``endpoint`` belongs to (empty: a lab-wide endpoint, in no study yet)."""
    if endpoint.pk is None:
        return frozenset({endpoint.created_for_id} - {None})
    pk = endpoint.pk
    ids = set(_POOL.objects.filter(modelendpoint_id=pk).values_list("study_id", flat=True))
    ids.update(
        Study.objects.filter(Q(improver_endpoint_id=pk) | Q(moderation_endpoint_id=pk)).values_list(
            "pk", flat=True
        )
    )
    ids.update(
        Conversation.objects.filter(model_endpoint_id=pk)
        .order_by()
        .values_list("study_id", flat=True)
        .distinct()
    )
    ids.update(
        TurnAnnotation.objects.filter(improver_endpoint_id=pk)
        .order_by()
        .values_list("turn__conversation__study_id", flat=True)
        .distinct()
    )
    stored_for = ModelEndpoint.objects.filter(pk=pk).values_list("created_for_id", flat=True)
    ids.update(s for s in stored_for if s is not None)
    return frozenset(ids)


def configs_of_studies(queryset: QuerySet, study_ids: Collection[int]) -> QuerySet:
    """The configuration snapshots of ``queryset`` that a conversation of ``study_ids`` ran
    under."""
    used = Conversation.objects.filter(model_config=OuterRef("pk"), study__in=list(study_ids))
    return queryset.filter(Exists(used))


__all__ = [
    "configs_of_studies",
    "endpoint_study_ids",
    "endpoints_of_studies",
    "endpoints_outside",
]
