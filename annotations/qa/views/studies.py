"""Study-level pages: monitoring (charts + CSV), reviewer agreement, the corrections export."""

from __future__ import annotations

from dataclasses import replace

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.safestring import mark_safe

from annotations.models import Conversation
from annotations.qa.access import has_study_perm
from annotations.qa.agreement import agreement_report
from annotations.qa.corrections import correction_rows
from annotations.qa.monitoring import TABLES, monitoring_tables
from annotations.qa.monitoring_charts import monitoring_sections
from annotations.qa.staff_home import staff_links
from annotations.qa.views.common import authorised_study, csv_response, render_page


def monitoring(request: HttpRequest, slug: str) -> HttpResponse:
    study = authorised_study(request, slug, "qa.view_monitoring")
    sections = [
        replace(section, charts=[mark_safe(svg) for svg in section.charts])  # charts.py escapes
        for section in monitoring_sections(monitoring_tables(study))
    ]
    return render_page(
        request,
        "qa/monitoring.html",
        f"Monitoring: {study.title}",
        {
            "study": study,
            "sections": sections,
            "can_see_agreement": has_study_perm(request.user, "qa.view_agreement", study.pk),
        },
    )


def monitoring_csv(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    study = authorised_study(request, slug, "qa.view_monitoring")
    if table not in TABLES:
        raise Http404("No such table")
    data = TABLES[table](study)
    return csv_response(f"{study.slug}-{table}.csv", data.columns, data.rows)


def agreement(request: HttpRequest, slug: str) -> HttpResponse:
    study = authorised_study(request, slug, "qa.view_agreement")
    report = agreement_report(study)
    return render_page(
        request,
        "qa/agreement.html",
        f"Reviewer agreement: {study.title}",
        {
            "study": study,
            "report": report,
            "summary": report.summary(),
        },
    )


def corrections_csv(request: HttpRequest, slug: str) -> HttpResponse:
    study = authorised_study(request, slug, "qa.export_data")
    rows = correction_rows(Conversation.objects.filter(study=study))
    header = ["conversationId", "field", "original", "corrected", "reason", "note", "correctedAt"]
    return csv_response(
        f"{study.slug}-corrections.csv", header, ([r[h] for h in header] for r in rows)
    )


def staff_home(request: HttpRequest) -> HttpResponse:
    """The admin's "View site": the pages this staff member can open."""
    return render_page(
        request, "qa/staff_home.html", "What you can open", {"links": staff_links(request.user)}
    )
