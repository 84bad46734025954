"""The review queue: conversations awaiting review, filterable, most severe flags first."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.utils.http import urlencode

from annotations.qa.access import authorise, has_study_perm
from annotations.qa.flags import MANUAL, flag_types
from annotations.qa.selectors import (
    QUEUE_VIEWS,
    VIEW_PERMISSION,
    QueueFilters,
    open_flags_by_conversation,
    queue_options,
    review_queue,
)
from annotations.qa.views.common import render_page

PAGE_SIZE = 50


def queue(request: HttpRequest) -> HttpResponse:
    authorise(request, VIEW_PERMISSION)
    filters = QueueFilters.from_query(request.GET)
    page = Paginator(review_queue(request.user, filters), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    flags = open_flags_by_conversation([c.pk for c in page])
    options = queue_options(request.user)
    tabs = [
        (key, label, urlencode(QueueFilters(**{**filters.__dict__, "view": key}).as_query()))
        for key, label in QUEUE_VIEWS.items()
    ]
    return render_page(
        request,
        "qa/queue.html",
        "Review queue",
        {
            "page": page,
            "rows": [(c, flags[c.pk]) for c in page],
            "filters": filters,
            "query": urlencode(filters.as_query()),
            "tabs": tabs,
            "options": options,
            "flag_choices": [(t.key, t.label) for t in flag_types()]
            + [(MANUAL, "Raised by a reviewer")],
            "study_links": [
                (
                    slug,
                    title,
                    has_study_perm(request.user, "qa.view_monitoring", pk),
                    has_study_perm(request.user, "qa.view_agreement", pk),
                )
                for pk, slug, title in options.studies
            ],
        },
    )
