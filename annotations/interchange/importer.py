"""Import a folder of AttuneBench files into a study: good files in, bad files named and skipped."""

from __future__ import annotations

import stat
from dataclasses import dataclass, field
from pathlib import Path

from django.db import DatabaseError, transaction

from annotations import dispatch
from annotations.audit_actions import AuditAction
from annotations.interchange.from_records import (
    ProfileConflict,
    RecordOptions,
    RecordRejected,
    save_records,
    validate_record,
)
from annotations.interchange.profile_mapping import map_profile_answers
from annotations.models import Conversation
from annotations.services.audit import record_audit
from annotations.services.studies import get_or_create_study
from attunebench import records
from attunebench.reader import FormatError, iter_conversation_files, read_conversation_file

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

    Each file is all or nothing: a file that fails validation writes no row. Only regular files
    directly in the folder are read (a symbolic link, a directory, a FIFO or a device is named
    and skipped, never opened or followed), each with the reader's limits (size, nesting,
    number length, NUL characters) and with every string fitting its column.

    Commit policy: valid files are saved in batches of ``BATCH_SIZE``, each batch in one
    transaction; should a batch still fail while saving (the database, or any unexpected
    error), its files are saved one by one (each in its own transaction) and those that fail are
    named and skipped. So every file is
    imported completely or not at all, and what was imported stays imported. The audit entry
    is written in every case, also when the import stops on an unexpected error (``error``).
    A conversation already in the study (same conversationId) is left alone, so a second run
    imports nothing.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder} is not a folder")
    if next(iter_conversation_files(folder), None) is None:
        # Nothing to import: say so before a study is made for it.
        raise FileNotFoundError(f"no conversation_*.json file in {folder}")
    study = get_or_create_study(study_slug, actor_label=actor_label)
    report = ImportReport()
    error = ""
    try:
        pending = _validated(folder, study, report)
        for start in range(0, len(pending), BATCH_SIZE):
            _save_batch(study, pending[start : start + BATCH_SIZE], report)
    except BaseException as exc:
        error = f"{type(exc).__name__}: {exc}"
        raise
    finally:
        record_audit(
            AuditAction.IMPORT_FOLDER,
            target=study,
            actor_label=actor_label,
            data={
                "folder": folder.name,
                "imported": len(report.imported),
                "already_present": len(report.already_present),
                "rejected": report.rejected,
                **({"error": error} if error else {}),
            },
        )
    if report.imported:  # their texts are scanned for personal details by a worker
        dispatch.scan_study_personal_details(study.pk)
    return report


def _validated(folder: Path, study, report: ImportReport) -> list[tuple[str, records.Conversation]]:
    instrument = study.instrument.parsed()
    existing = set(Conversation.objects.filter(study=study).values_list("external_id", flat=True))
    pending: list[tuple[str, records.Conversation]] = []
    seen_in_folder: dict[str, str] = {}
    for path in iter_conversation_files(folder):
        try:
            _refuse_unless_regular(path)
            record = read_conversation_file(path)
            validate_record(record, instrument)
            record = map_profile_answers(record, instrument)
        except (FormatError, RecordRejected) as exc:
            report.rejected.append((path.name, str(exc)))
            continue
        if record.conversation_id in seen_in_folder:
            also = seen_in_folder[record.conversation_id]
            report.rejected.append(
                (path.name, f"conversationId {record.conversation_id!r} also in {also}")
            )
            continue
        seen_in_folder[record.conversation_id] = path.name
        if record.conversation_id in existing:
            report.already_present.append(record.conversation_id)
            continue
        pending.append((path.name, record))
    return pending


def _refuse_unless_regular(path: Path) -> None:
    """Name what is not a regular file without opening it (a FIFO would block a read)."""
    mode = path.lstat().st_mode
    if stat.S_ISLNK(mode):
        raise FormatError("", "is a symbolic link; only regular files inside the folder are read")
    if not stat.S_ISREG(mode):
        raise FormatError("", "is not a regular file")


def _save_failure(exc: Exception) -> str:
    """Why one file could not be saved, in a line."""
    reason = str(exc).splitlines()[0] if str(exc) else ""
    if isinstance(exc, ProfileConflict):
        return reason
    if isinstance(exc, DatabaseError):
        return f"the database refused it ({reason or type(exc).__name__})"
    return f"it could not be saved ({type(exc).__name__}: {reason})"


def _save_batch(study, batch: list[tuple[str, records.Conversation]], report: ImportReport) -> None:
    try:
        with transaction.atomic():
            save_records(study, [record for _, record in batch], RecordOptions())
    except Exception as exc:
        # Besides a DatabaseError, a value the reader let through may still fail in the driver
        # (OverflowError, UnicodeEncodeError): that is one file's error, not the import's.
        if len(batch) == 1:
            report.rejected.append((batch[0][0], _save_failure(exc)))
            return
        for item in batch:  # find the file the database refuses; keep the others
            _save_batch(study, [item], report)
        return
    report.imported += [record.conversation_id for _, record in batch]
