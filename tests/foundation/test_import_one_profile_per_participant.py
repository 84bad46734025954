"""One participant_id carries one profile: a conversation file that gives an already imported
participant a different profile (another age, other diagnoses) is refused, naming the
participant, instead of being stored under the first profile (which moved it silently into the
first one's subgroups). The same profile again is that participant's next conversation."""

import json
from dataclasses import replace

import pytest

from annotations.interchange import importer
from annotations.models import Conversation, Participant
from attunebench.writer import conversation_to_dict
from tests.factories import build_record

pytestmark = pytest.mark.django_db


def _write(folder, name: str, **profile_changes) -> None:
    record = build_record(name)
    profile = replace(record.participant_profile, participant_id="p-1", **profile_changes)
    data = conversation_to_dict(replace(record, participant_profile=profile))
    (folder / f"conversation_{name}.json").write_text(json.dumps(data))


def test_a_second_profile_for_one_participant_is_refused(tmp_path):
    _write(tmp_path, "c1")
    _write(tmp_path, "c2")  # the same profile: the participant's second conversation
    _write(tmp_path, "c3", age=61, traits=("diagnosis:anxiety_depression",))
    report = importer.import_folder(tmp_path, "s", actor_label="test")
    assert sorted(report.imported) == ["c1", "c2"]
    ((name, reason),) = report.rejected
    assert name == "conversation_c3.json"
    assert "'p-1'" in reason and "age" in reason and "traits" in reason
    participant = Participant.objects.get()
    assert participant.age == 30 and Conversation.objects.count() == 2


def test_a_later_import_is_checked_against_the_stored_profile(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    _write(first, "c1")
    assert importer.import_folder(first, "s", actor_label="test").imported == ["c1"]
    _write(second, "c2", goals=("get advice",))
    report = importer.import_folder(second, "s", actor_label="test")
    assert report.imported == [] and "goals" in report.rejected[0][1]
