"""Export a study's conversations as a folder of AttuneBench files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.db.models import QuerySet

from annotations.interchange.to_records import iter_records
from annotations.models import Conversation, ConversationState, Study
from attunebench.writer import write_conversation_file


@dataclass(frozen=True)
class ExportReport:
    written: int
    folder: Path


def exportable_conversations(
    study: Study, *, include_unfinished: bool = False
) -> QuerySet[Conversation]:
    """Completed conversations by default; excluded ones never, preview participants never."""
    queryset = Conversation.objects.filter(study=study, participant__is_preview=False)
    if include_unfinished:
        return queryset.exclude(state=ConversationState.EXCLUDED)
    return queryset.filter(state=ConversationState.COMPLETED)


def export_study(
    study: Study, folder: str | Path, *, include_unfinished: bool = False
) -> ExportReport:
    folder = Path(folder)
    written = 0
    for record in iter_records(
        exportable_conversations(study, include_unfinished=include_unfinished)
    ):
        write_conversation_file(record, folder)
        written += 1
    return ExportReport(written=written, folder=folder)
