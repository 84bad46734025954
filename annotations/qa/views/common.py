"""What every QA page shares: the admin's look, CSV responses, the object a URL names."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from annotations.models import Conversation, Study
from annotations.qa.access import authorise


def render_page(request: HttpRequest, template: str, title: str, context: dict) -> HttpResponse:
    return render(
        request, template, {**admin.site.each_context(request), "title": title, **context}
    )


def csv_response(filename: str, header: Sequence[str], rows: Iterable[Sequence]) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(header)
    writer.writerows(rows)
    return response


def authorised_study(request: HttpRequest, slug: str, perm: str) -> Study:
    study = get_object_or_404(Study, slug=slug)
    authorise(request, perm, study.pk)
    return study


def authorised_conversation(request: HttpRequest, pk: int, perm: str) -> Conversation:
    conversation = get_object_or_404(Conversation.objects.select_related("study"), pk=pk)
    authorise(request, perm, conversation.study_id)
    return conversation
