"""import_attunebench: good files in, each bad file named and skipped, nothing imported twice."""

import json
import shutil
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotations.models import AuditEntry, Conversation, MoodTag, Study, Turn
from attunebench.writer import conversation_to_dict, write_conversation_file
from tests.factories import build_record
from tests.fixtures import REFERENCE_STYLE

pytestmark = pytest.mark.django_db


def run(folder, study="imported") -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("import_attunebench", str(folder), "--study", study, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def mixed_folder(tmp_path):
    for name in ("a", "b", "c"):
        write_conversation_file(build_record(name), tmp_path)
    (tmp_path / "conversation_broken.json").write_text("{not json", encoding="utf-8")
    bad_tag = conversation_to_dict(build_record("bad-tag"))
    bad_tag["turns"][1]["moodShiftTags"] = [{"emotion": "Upset", "intensity": 9}]
    (tmp_path / "conversation_bad-tag.json").write_text(json.dumps(bad_tag), encoding="utf-8")
    unknown_question = conversation_to_dict(build_record("bad-question"))
    unknown_question["turns"][0]["annotations"]["binaryJudgements"][0]["questionId"] = "B999"
    (tmp_path / "conversation_bad-question.json").write_text(
        json.dumps(unknown_question), encoding="utf-8"
    )
    (tmp_path / "notes.txt").write_text("not a conversation file", encoding="utf-8")
    return tmp_path


def test_imports_exactly_the_good_files(mixed_folder):
    out, err = run(mixed_folder)
    assert "imported 3, already present 0, rejected 3" in out
    assert sorted(Conversation.objects.values_list("external_id", flat=True)) == ["a", "b", "c"]


def test_names_each_bad_file_with_its_reason(mixed_folder):
    _, err = run(mixed_folder)
    assert "skipped conversation_broken.json: invalid JSON" in err
    assert (
        "skipped conversation_bad-tag.json: turns[1].moodShiftTags[0].intensity: 9 is out of range 1..7"
        in err
    )
    assert (
        "skipped conversation_bad-question.json: turns[turnNumber=1].annotations.binaryJudgements: unknown behaviour question 'B999'"
        in err
    )


def test_a_bad_file_writes_nothing(mixed_folder):
    run(mixed_folder)
    assert not Conversation.objects.filter(external_id__startswith="bad").exists()
    # 3 good conversations x 2 turns, each with one mood tag: nothing from the bad files.
    assert Turn.objects.count() == 6
    assert MoodTag.objects.count() == 6


def test_running_again_imports_nothing_twice(mixed_folder):
    run(mixed_folder)
    out, _ = run(mixed_folder)
    assert "imported 0, already present 3, rejected 3" in out
    assert Conversation.objects.count() == 3


def test_creates_the_study_on_the_default_instrument(mixed_folder):
    run(mixed_folder, study="new-study")
    study = Study.objects.get(slug="new-study")
    assert (study.instrument.name, study.instrument.version) == ("attune-default", 1)


def test_reference_style_file_with_every_alias(tmp_path):
    shutil.copy(REFERENCE_STYLE / "conversation_17.json", tmp_path)
    out, _ = run(tmp_path)
    assert "imported 1" in out
    conversation = Conversation.objects.get(external_id="17")
    assert (conversation.model_endpoint.provider, conversation.model_endpoint.model_name) == (
        "openai",
        "gpt-4o",
    )
    assert conversation.participant.age == 34


def test_the_import_is_audited(mixed_folder):
    run(mixed_folder)
    entry = AuditEntry.objects.get(action="annotations.import.folder")
    assert entry.data["imported"] == 3
    assert len(entry.data["rejected"]) == 3


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="is not a folder"):
        run(tmp_path / "nowhere")


def test_a_folder_of_only_bad_files_fails(tmp_path):
    (tmp_path / "conversation_1.json").write_text("[]", encoding="utf-8")
    with pytest.raises(CommandError, match="no file in the folder could be imported"):
        run(tmp_path)


def test_a_folder_without_conversation_files_is_refused_and_makes_no_study(tmp_path):
    (tmp_path / "notes.txt").write_text("not a conversation", encoding="utf-8")
    with pytest.raises(CommandError, match="no conversation_"):
        run(tmp_path)
    assert not Study.objects.filter(slug="imported").exists()


def test_a_study_slug_that_is_no_slug_is_a_clear_error(mixed_folder):
    with pytest.raises(CommandError, match="--study 'Bad Slug!'"):
        run(mixed_folder, study="Bad Slug!")
    assert not Conversation.objects.exists()
