"""Import a folder of AttuneBench files into a study: good files in, bad files named and skipped."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from annotations.interchange.from_records import (
    RecordOptions,
    RecordRejected,
    save_records,
    validate_record,
)
from annotations.models import Conversation
from annotations.services.audit import record_audit
from annotations.services.studies import get_or_create_study
from evaluation.benchmark import records
from evaluation.benchmark.reader import FormatError, iter_conversation_files, read_conversation_file

BATCH_SIZE = 200


@dataclass
class ImportReport:
    imported: list[str] = field(default_factory=list)
    already_present: list[str] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (file name, reason)

    @property
    def ok(self) -> bool:
        return not self.rejected


def import_folder(
    folder: str | Path, study_slug: str, *, actor_label: str = "system"
) -> ImportReport:
    """Validate every ``conversation_*.json`` file, then import the good ones in bulk.

    Each file is all or nothing: a file that fails validation writes no row. A conversation
    already in the study (same conversationId) is left alone, so a second run imports nothing.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder} is not a folder")
    study = get_or_create_study(study_slug, actor_label=actor_label)
    instrument = study.instrument.parsed()
    existing = set(Conversation.objects.filter(study=study).values_list("external_id", flat=True))
    report = ImportReport()
    pending: list[records.Conversation] = []
    seen_in_folder: dict[str, str] = {}
    for path in iter_conversation_files(folder):
        try:
            record = read_conversation_file(path)
            validate_record(record, instrument)
        except (FormatError, RecordRejected) as exc:
            report.rejected.append((path.name, str(exc)))
            continue
        if record.conversation_id in seen_in_folder:
            report.rejected.append(
                (
                    path.name,
                    f"conversationId {record.conversation_id!r} also in {seen_in_folder[record.conversation_id]}",
                )
            )
            continue
        seen_in_folder[record.conversation_id] = path.name
        if record.conversation_id in existing:
            report.already_present.append(record.conversation_id)
            continue
        pending.append(record)
    for start in range(0, len(pending), BATCH_SIZE):
        batch = pending[start : start + BATCH_SIZE]
        with transaction.atomic():
            save_records(study, batch, RecordOptions())
            report.imported += [record.conversation_id for record in batch]
    record_audit(
        "annotations.import.folder", target=study, actor_label=actor_label,
        data={"folder": folder.name, "imported": len(report.imported),
              "already_present": len(report.already_present), "rejected": report.rejected},
    )  # fmt: skip
    return report
