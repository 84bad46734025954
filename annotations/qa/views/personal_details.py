"""The personal-details queue: accept, edit the span, dismiss, or mark a span the detectors
missed. Reviewers and researchers with ``qa.review_personal_details`` in the study; the
services check it again for every decision (a viewer or an outsider gets 403 here)."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_POST

from annotations.qa.access import authorise
from annotations.qa.models import PersonalDetailFinding
from annotations.qa.personal_detail_rows import REVIEW_PERM, finding_rows, pending_findings
from annotations.qa.personal_details.kinds import DetailKind
from annotations.qa.services import QAError
from annotations.qa.services.personal_details import decide_finding, mark_missed
from annotations.qa.views.common import authorised_conversation, render_page
from annotations.staff import staff_user

PAGE_SIZE = 50


def personal_details_queue(request: HttpRequest) -> HttpResponse:
    authorise(request, REVIEW_PERM)
    page = Paginator(pending_findings(request.user), PAGE_SIZE).get_page(request.GET.get("page"))
    return render_page(
        request,
        "qa/personal_details.html",
        "Personal details to review",
        {"page": page, "rows": finding_rows(list(page)), "kinds": [k.value for k in DetailKind]},
    )


def _back(request: HttpRequest) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("qa:personal_details"))


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        raise QAError("Start and end are character positions (whole numbers).") from None


@require_POST
def personal_detail_decide(request: HttpRequest, pk: int) -> HttpResponse:
    finding = get_object_or_404(PersonalDetailFinding, pk=pk)
    authorised_conversation(request, finding.conversation_id, REVIEW_PERM)
    decision = request.POST.get("decision", "")
    try:
        if decision not in ("accept", "dismiss"):
            raise QAError("Accept or dismiss.")
        decide_finding(
            finding,
            actor=staff_user(request),
            accept=decision == "accept",
            start=_int(request.POST.get("start")),
            end=_int(request.POST.get("end")),
        )
    except QAError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Finding {'accepted' if decision == 'accept' else 'dismissed'}.")
    return _back(request)


@require_POST
def personal_detail_missed(request: HttpRequest) -> HttpResponse:
    conversation = authorised_conversation(
        request, _int(request.POST.get("conversation")) or 0, REVIEW_PERM
    )
    try:
        mark_missed(
            conversation,
            actor=staff_user(request),
            field_path=request.POST.get("field_path", ""),
            start=_int(request.POST.get("start")) or 0,
            end=_int(request.POST.get("end")) or 0,
            kind=request.POST.get("kind", ""),
        )
    except QAError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Missed span marked: it is redacted in releases.")
    return _back(request)
