"""import_attunebench against hostile folders: every bad file is named with its reason and
skipped (never a traceback, never a hang, never a file outside the folder), the good ones are
imported, and the audit entry is always written."""

import json
import os
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import DatabaseError

from annotations.interchange import importer
from annotations.models import AuditEntry, Conversation, Study
from attunebench.writer import conversation_to_dict, write_conversation_file
from tests.factories import build_record

pytestmark = pytest.mark.django_db


def run(folder) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("import_attunebench", str(folder), "--study", "hardened", stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def _write(folder, name: str, data) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    (folder / f"conversation_{name}.json").write_text(text, encoding="utf-8")


def _record(name: str) -> dict:
    return conversation_to_dict(build_record(name))


def _audit() -> dict:
    return AuditEntry.objects.get(action="annotations.import.folder").data


def hostile_files(folder, outside):
    _write(folder, "deep", '{"conversationId": "deep", "x": ' + "[" * 200_000 + "]" * 200_000 + "}")
    big_number = _record("big-number")
    _write(
        folder, "big-number", json.dumps(big_number).replace('"age": 30', '"age": ' + "9" * 5000)
    )
    _write(folder, "long-id", {**_record("x"), "conversationId": "i" * 300})
    long_category = _record("long-category")
    long_category["metadata"]["category"] = "c" * 500
    _write(folder, "long-category", long_category)
    nul = _record("nul")
    nul["turns"][0]["userMessage"] = "hello\x00there"
    _write(folder, "nul", nul)
    (folder / "conversation_dir.json").mkdir()
    (folder / "conversation_dangling.json").symlink_to(folder / "nowhere.json")
    os.mkfifo(folder / "conversation_fifo.json")
    write_conversation_file(build_record("outside"), outside)
    (folder / "conversation_link.json").symlink_to(outside / "conversation_outside.json")
    return {
        "deep": "nested more than",
        "big-number": "5000 digits",
        "long-id": "conversationId: 300 characters",
        "long-category": "metadata.category: 500 characters",
        "nul": "turns[0].userMessage: contains the NUL",
        "dir": "not a regular file",
        "dangling": "symbolic link",
        "fifo": "not a regular file",
        "link": "symbolic link",
    }


def test_each_hostile_file_is_named_and_skipped(tmp_path):
    folder, outside = tmp_path / "in", tmp_path / "outside"
    folder.mkdir(), outside.mkdir()
    for name in ("good-1", "good-2"):
        write_conversation_file(build_record(name), folder)
    reasons = hostile_files(folder, outside)
    out, err = run(folder)
    assert "imported 2, already present 0, rejected 9" in out
    for name, reason in reasons.items():
        line = next(line for line in err.splitlines() if f"conversation_{name}.json:" in line)
        assert reason in line, (name, line)
    assert sorted(Conversation.objects.values_list("external_id", flat=True)) == [
        "good-1",
        "good-2",
    ]
    assert len(_audit()["rejected"]) == 9


def test_a_file_the_database_refuses_is_skipped_and_the_rest_kept(tmp_path, monkeypatch):
    for i in range(5):
        write_conversation_file(build_record(f"ok-{i}"), tmp_path)
    write_conversation_file(build_record("ok-2-poison"), tmp_path)
    real_save = importer.save_records

    def save(study, batch, options):
        if any(record.conversation_id.endswith("poison") for record in batch):
            raise DatabaseError("value too long for type character varying(200)")
        return real_save(study, batch, options)

    monkeypatch.setattr(importer, "save_records", save)
    monkeypatch.setattr(importer, "BATCH_SIZE", 2)
    out, err = run(tmp_path)
    assert "imported 5, already present 0, rejected 1" in out
    assert "conversation_ok-2-poison.json: the database refused it (value too long" in err
    assert Conversation.objects.count() == 5 and _audit()["imported"] == 5


def test_the_audit_entry_is_written_when_the_import_stops(tmp_path, monkeypatch):
    write_conversation_file(build_record("one"), tmp_path)

    # An error saving one file is that file's error (test_import_unstorable_input.py); what
    # stops the whole import is an interruption.
    def interrupt(study, batch, options):
        raise KeyboardInterrupt("stopped by the operator")

    monkeypatch.setattr(importer, "save_records", interrupt)
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path)
    assert Study.objects.filter(slug="hardened").exists()
    assert _audit()["error"] == "KeyboardInterrupt: stopped by the operator"
