"""The conversation page and its actions: decide, adjudicate, flags, corrections."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_POST

from annotations.models import ConversationState
from annotations.qa.access import has_study_perm
from annotations.qa.detail import conversation_detail
from annotations.qa.flags import MANUAL
from annotations.qa.models import (
    Correction,
    CorrectionReason,
    Decision,
    ExclusionReason,
    Flag,
    FlagStatus,
    ReviewStatus,
    Severity,
)
from annotations.qa.selectors import VIEW_PERMISSION, QueueFilters, next_in_queue
from annotations.qa.services import QAError
from annotations.qa.services.correcting import add_correction, withdraw_correction
from annotations.qa.services.flagging import raise_flag, resolve_flag
from annotations.qa.services.reviews import ReviewInput, adjudicate, submit_review
from annotations.qa.views.common import authorised_conversation, render_page
from annotations.staff import staff_user

REVIEW, ADJUDICATE = "qa.review_conversation", "qa.adjudicate"
FLAG, CORRECT = "qa.flag_conversation", "qa.correct_annotation"


def conversation_page(request: HttpRequest, pk: int) -> HttpResponse:
    conversation = authorised_conversation(request, pk, VIEW_PERMISSION)
    user, study_id = request.user, conversation.study_id
    can = {
        name: has_study_perm(user, perm, study_id)
        for name, perm in (
            ("review", REVIEW),
            ("adjudicate", ADJUDICATE),
            ("flag", FLAG),
            ("correct", CORRECT),
        )
    }
    detail = conversation_detail(pk, user, sees_all_reviews=can["adjudicate"])
    status = detail.qa.status if detail.qa else ReviewStatus.PENDING
    reviewable = detail.conversation.state == ConversationState.COMPLETED and (
        status == ReviewStatus.PENDING
        or (status == ReviewStatus.AWAITING_SECOND and not detail.reviewed_by_user)
    )
    queue_query = request.GET.get("queue", "")
    return render_page(
        request,
        "qa/conversation.html",
        f"Conversation {detail.conversation.external_id}",
        {
            "d": detail,
            "can": can,
            "review_open": reviewable and can["review"],
            "adjudication_open": status == ReviewStatus.DISAGREEMENT and can["adjudicate"],
            "flag_actions_open": can["flag"] and not detail.blind_pending,
            "decisions": Decision.choices,
            "final_decisions": [c for c in Decision.choices if c[0] != Decision.SECOND_REVIEW],
            "reasons": ExclusionReason.choices,
            "correction_reasons": CorrectionReason.choices,
            "severities": Severity.choices,
            "queue_query": queue_query,
            "next_id": next_in_queue(
                user, QueueFilters.from_query(QueryDict(queue_query)), after=pk
            ),
        },
    )


def _back(conversation_id: int, request: HttpRequest) -> HttpResponseRedirect:
    url = reverse("qa:conversation", args=[conversation_id])
    queue_query = request.POST.get("queue", "")
    return HttpResponseRedirect(
        f"{url}?queue={QueryDict(queue_query).urlencode()}" if queue_query else url
    )


def _review_input(request: HttpRequest) -> ReviewInput:
    verdicts: dict[int, str] = {}
    for key in request.POST:
        value = request.POST.get(key, "")
        if key.startswith("flag-") and key[5:].isdigit() and value:
            verdicts[int(key[5:])] = value
    return ReviewInput(
        decision=request.POST.get("decision", ""),
        exclusion_reason=request.POST.get("exclusion_reason", "")
        if request.POST.get("decision") == Decision.EXCLUDE
        else "",
        note=request.POST.get("note", ""),
        flag_verdicts=verdicts,
    )


def _act(request: HttpRequest, conversation_id: int, action, success: str) -> HttpResponseRedirect:
    """Run a service call; its QAError becomes a message on the page it came from."""
    try:
        action()
    except QAError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, success)
    return _back(conversation_id, request)


@require_POST
def review(request: HttpRequest, pk: int) -> HttpResponse:
    conversation = authorised_conversation(request, pk, REVIEW)
    try:
        qa = submit_review(conversation, staff_user(request), _review_input(request))
    except QAError as exc:
        messages.error(request, str(exc))
        return _back(pk, request)
    messages.success(
        request, f"Review saved: the conversation is now {qa.get_status_display().lower()}."
    )
    if request.POST.get("then") == "next":
        queue_query = QueryDict(request.POST.get("queue", ""))
        next_id = next_in_queue(request.user, QueueFilters.from_query(queue_query), after=pk)
        if next_id is not None:
            return _back(next_id, request)
        return HttpResponseRedirect(f"{reverse('qa:queue')}?{queue_query.urlencode()}")
    return _back(pk, request)


@require_POST
def adjudication(request: HttpRequest, pk: int) -> HttpResponse:
    conversation = authorised_conversation(request, pk, ADJUDICATE)
    return _act(
        request,
        pk,
        lambda: adjudicate(conversation, staff_user(request), _review_input(request)),
        "Adjudicated: the decision is final.",
    )


@require_POST
def flag_raise(request: HttpRequest, pk: int) -> HttpResponse:
    conversation = authorised_conversation(request, pk, FLAG)
    turns = [int(n) for n in request.POST.get("turns", "").replace(",", " ").split() if n.isdigit()]
    return _act(
        request,
        pk,
        lambda: raise_flag(
            conversation,
            actor=staff_user(request),
            summary=request.POST.get("summary", ""),
            severity=request.POST.get("severity", Severity.WARNING),
            flag_type=MANUAL,
            turn_numbers=turns,
        ),
        "Flag raised.",
    )


@require_POST
def flag_status(request: HttpRequest, pk: int) -> HttpResponse:
    flag = get_object_or_404(Flag, pk=pk)
    authorised_conversation(request, flag.conversation_id, FLAG)
    status = request.POST.get("status", "")
    return _act(
        request,
        flag.conversation_id,
        lambda: resolve_flag(
            flag, status=status, actor=staff_user(request), note=request.POST.get("note", "")
        ),
        f"Flag {dict(FlagStatus.choices).get(status, status).lower()}.",
    )


@require_POST
def correction_add(request: HttpRequest, pk: int) -> HttpResponse:
    conversation = authorised_conversation(request, pk, CORRECT)
    return _act(
        request,
        pk,
        lambda: add_correction(
            conversation,
            field_path=request.POST.get("field_path", ""),
            value=request.POST.get("value", ""),
            reason=request.POST.get("reason", ""),
            note=request.POST.get("note", ""),
            actor=staff_user(request),
        ),
        "Correction recorded; the participant's original is kept.",
    )


@require_POST
def correction_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    correction = get_object_or_404(Correction, pk=pk)
    authorised_conversation(request, correction.conversation_id, CORRECT)
    return _act(
        request,
        correction.conversation_id,
        lambda: withdraw_correction(correction, actor=staff_user(request)),
        "Correction withdrawn.",
    )
