"""The researcher API's reads, each limited to what the token grants now (``access.py``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, QuerySet
from django.http import Http404

from annotations.models import Conversation, Participant, Study, Turn
from annotations.qa.models import ConversationReview, Flag
from annotations.qa.models.review import ReviewStatus
from annotations.releases.models import Release
from evaluation.models import EvaluationRun
from researcher_api import access
from researcher_api.models import ApiToken

VIEW_STUDY = "annotations.view_study"


def studies(token: ApiToken) -> QuerySet[Study]:
    return Study.objects.filter(pk__in=access.studies_allowing(token, VIEW_STUDY))


def study(token: ApiToken, slug: str, perm: str) -> Study:
    """A study of the token where its user has a role (any other is "not found", whether it
    exists or not), in which the token may use ``perm`` (else 403)."""
    found = Study.objects.filter(pk__in=access.visible_study_ids(token), slug=slug).first()
    if found is None:
        raise Http404("No study of this token has this slug.")
    access.require(token, perm, found.pk)
    return found


def _spanning(queryset: QuerySet, token: ApiToken, perm: str, lookup: str) -> QuerySet:
    """Rows of at least one study, all of them granted (a release, a run over one)."""
    allowed = access.studies_allowing(token, perm)
    return (
        queryset.filter(**{f"{lookup}__in": allowed})
        .exclude(**{f"{lookup}__in": Study.objects.exclude(pk__in=allowed)})
        .distinct()
    )


def releases(token: ApiToken) -> QuerySet[Release]:
    return _spanning(Release.objects.all(), token, "releases.view_release", "studies")


def release(token: ApiToken, pk: int) -> Release:
    found = releases(token).filter(pk=pk).first()
    if found is None:
        raise Http404("No release of this token's studies has this id.")
    return found


def runs(token: ApiToken) -> QuerySet[EvaluationRun]:
    return _spanning(
        EvaluationRun.objects.select_related("release"),
        token,
        "evaluation.view_evaluationrun",
        "release__studies",
    )


def run(token: ApiToken, pk: int) -> EvaluationRun:
    found = runs(token).filter(pk=pk).first()
    if found is None:
        raise Http404("No evaluation run of this token's studies has this id.")
    return found


def participants(study: Study) -> QuerySet[Participant]:
    return Participant.objects.filter(study=study, is_preview=False).order_by("pk")


def conversations(study: Study) -> QuerySet[Conversation]:
    return (
        Conversation.objects.filter(study=study, participant__is_preview=False)
        .select_related("participant")
        .annotate(turn_count=Count("turns"), qa_status_value=F("qa_review__status"))
        .order_by("pk")
    )


def conversation(study: Study, pk: int) -> Conversation:
    found = conversations(study).filter(pk=pk).first()
    if found is None:
        raise Http404("This study has no conversation with this id.")
    return found


def messages(conversation: Conversation) -> QuerySet[Turn]:
    return Turn.objects.filter(conversation=conversation).order_by("number")


def qa_summary(study: Study) -> dict[str, Any]:
    """Flag counts (by type, severity and status) and review progress of one study."""
    flags = (
        Flag.objects.filter(conversation__study=study)
        .values("flag_type", "severity", "status")
        .annotate(count=Count("pk"))
        .order_by("flag_type", "severity", "status")
    )
    reviews = dict(
        ConversationReview.objects.filter(conversation__study=study)
        .values_list("status")
        .annotate(count=Count("pk"))
        .order_by()
    )
    progress = {status: reviews.get(status, 0) for status in ReviewStatus.values}
    total = sum(progress.values())
    decided = progress[ReviewStatus.APPROVED] + progress[ReviewStatus.EXCLUDED]
    return {
        "flags": list(flags),
        "reviews": progress,
        "reviews_total": total,
        "reviews_decided": decided,
        "reviews_open": total - decided,
    }
