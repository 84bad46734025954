"""The personal-details queue's read model: pending findings in the reviewer's studies, each
with the words around it, so the reviewer sees what the detector saw."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from annotations.interchange.to_records import load_records
from annotations.qa.access import limit_to_studies
from annotations.qa.models import FindingStatus, PersonalDetailFinding
from annotations.qa.personal_details.texts import record_texts

REVIEW_PERM = "qa.review_personal_details"
CONTEXT_CHARS = 60


@dataclass(frozen=True)
class FindingRow:
    finding: PersonalDetailFinding
    before: str
    detail: str
    after: str
    text_length: int
    stale: bool  # the text changed since the scan: the next scan replaces the finding


def pending_findings(user) -> QuerySet[PersonalDetailFinding]:
    """Pending findings of the studies where the user may review them, oldest conversation first."""
    rows = PersonalDetailFinding.objects.filter(status=FindingStatus.PENDING).select_related(
        "conversation", "conversation__study"
    )
    return limit_to_studies(rows, user, REVIEW_PERM, "conversation__study").order_by(
        "conversation_id", "field_path", "start", "pk"
    )


def finding_rows(findings: list[PersonalDetailFinding]) -> list[FindingRow]:
    ids = sorted({f.conversation_id for f in findings})
    texts = {pk: record_texts(record) for pk, record in zip(ids, load_records(ids), strict=True)}
    rows = []
    for finding in findings:
        text = texts[finding.conversation_id].get(finding.field_path, "")
        stale = finding.end > len(text)
        start, end = min(finding.start, len(text)), min(finding.end, len(text))
        rows.append(
            FindingRow(
                finding=finding,
                before=text[max(0, start - CONTEXT_CHARS) : start],
                detail=text[start:end],
                after=text[end : end + CONTEXT_CHARS],
                text_length=len(text),
                stale=stale,
            )
        )
    return rows
