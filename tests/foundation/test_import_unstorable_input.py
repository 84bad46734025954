"""Input no column can hold is refused by the reader, naming the file and field: a lone
surrogate (no UTF-8 encoding exists for it), an integer past the database's range, and a
conversationId that cannot be a file name (exports and releases name files by it). And the
importer turns an unexpected error while saving one file into that file's error: the other
files are imported, never left half-done behind a traceback."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from annotations.interchange import importer
from annotations.models import AuditEntry, Conversation
from attunebench.json_tree import json_tree_problem
from attunebench.reader import FormatError, parse_conversation, read_conversation_file
from attunebench.writer import conversation_to_dict
from tests.factories import build_record


def _data(name: str = "c1") -> dict:
    return conversation_to_dict(build_record(name))


def _refused(data) -> FormatError:
    with pytest.raises(FormatError) as caught:
        parse_conversation(data)
    return caught.value


def test_a_lone_surrogate_in_a_file_is_refused_naming_the_field(tmp_path):
    raw = json.dumps(_data()).replace('"userMessage": "', '"userMessage": "\\ud83d', 1)
    path = tmp_path / "conversation_c1.json"
    path.write_text(raw, encoding="utf-8")
    with pytest.raises(FormatError) as caught:
        read_conversation_file(path)
    assert caught.value.field == "turns[0].userMessage"
    assert "surrogate" in caught.value.reason


def test_a_lone_surrogate_in_a_key_is_refused():
    assert json_tree_problem({"a": {"b\udc00": 1}}, 8) == (
        "a",
        "a key contains a lone surrogate (\\udc00), which is not text",
    )


def test_a_paired_surrogate_written_as_escapes_is_an_ordinary_character():
    parsed = json.loads('"\\ud83d\\ude00"')
    assert parsed == "\U0001f600" and json_tree_problem(parsed, 8) is None


@pytest.mark.parametrize("number", [10**20, 2**31])
def test_a_turn_number_past_the_database_range_is_refused(number):
    data = _data()
    data["turns"][0]["turnNumber"] = number
    error = _refused(data)
    assert error.field == "turns[0].turnNumber"
    assert str(number) in error.reason


@pytest.mark.parametrize("bad_id", ["a/b", "..\\x", "tab\there", "line\nbreak", "bell\x07"])
def test_a_conversation_id_that_cannot_name_a_file_is_refused(bad_id):
    error = _refused({**_data(), "conversationId": bad_id})
    assert error.field == "conversationId"
    assert "file name" in error.reason


def _write_folder(folder, count: int) -> None:
    for index in range(count):
        name = f"c{index:03d}"
        (folder / f"conversation_{name}.json").write_text(json.dumps(_data(name)))


@pytest.mark.django_db
def test_a_folder_with_bad_files_imports_the_rest_and_names_them(tmp_path):
    _write_folder(tmp_path, 6)
    surrogate = json.dumps(_data("c002")).replace('"userMessage": "', '"userMessage": "\\ud83d', 1)
    (tmp_path / "conversation_c002.json").write_text(surrogate)
    huge = _data("c004")
    huge["turns"][1]["turnNumber"] = 10**20
    (tmp_path / "conversation_c004.json").write_text(json.dumps(huge))
    slash = {**_data("c005"), "conversationId": "c/005"}
    (tmp_path / "conversation_c005.json").write_text(json.dumps(slash))
    out, err = StringIO(), StringIO()
    call_command("import_attunebench", str(tmp_path), "--study", "s", stdout=out, stderr=err)
    imported = set(Conversation.objects.values_list("external_id", flat=True))
    assert imported == {"c000", "c001", "c003"}
    rejected = dict(AuditEntry.objects.get(action="annotations.import.folder").data["rejected"])
    assert set(rejected) == {f"conversation_c00{i}.json" for i in (2, 4, 5)}
    assert "turns[0].userMessage" in rejected["conversation_c002.json"]
    assert "turns[1].turnNumber" in rejected["conversation_c004.json"]
    assert "conversationId" in rejected["conversation_c005.json"]


@pytest.mark.django_db
def test_an_unexpected_error_saving_one_file_is_that_files_error(tmp_path, monkeypatch):
    _write_folder(tmp_path, 5)
    save_records = importer.save_records

    def failing(study, batch, options):
        if any(record.conversation_id == "c003" for record in batch):
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        return save_records(study, batch, options)

    monkeypatch.setattr(importer, "save_records", failing)
    report = importer.import_folder(tmp_path, "s", actor_label="test")
    assert sorted(report.imported) == ["c000", "c001", "c002", "c004"]
    ((name, reason),) = report.rejected
    assert name == "conversation_c003.json"
    assert "OverflowError" in reason and "SQLite INTEGER" in reason
    assert Conversation.objects.count() == 4
    assert AuditEntry.objects.get(action="annotations.import.folder").data["imported"] == 4
