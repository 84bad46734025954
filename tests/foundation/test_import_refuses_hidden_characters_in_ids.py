"""import_attunebench refuses ids holding a control or bidirectional formatting character
(U+202A-U+202E, U+2066-U+2069, U+200E/U+200F, U+061C, C0 and C1 controls): such an id shows as
another on every page and report (a right-to-left override reverses what follows it). The file
is named with the field and the character's code point (the raw character would spoof the
terminal too); nothing of it is stored (issue 36)."""

import dataclasses

import pytest

from annotations.interchange import importer
from annotations.models import Conversation, ModelEndpoint, Participant
from attunebench.writer import write_conversation_file
from tests.factories import build_record

pytestmark = pytest.mark.django_db

HIDDEN = ["\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c", "\x07", "\x85"]


def _with_profile_id(name: str, participant_id: str):
    record = build_record(name)
    profile = dataclasses.replace(record.participant_profile, participant_id=participant_id)
    return dataclasses.replace(record, participant_profile=profile)


def _with_model(name: str, model: str):
    record = build_record(name)
    return dataclasses.replace(record, metadata=dataclasses.replace(record.metadata, model=model))


@pytest.mark.parametrize("char", HIDDEN, ids=lambda c: f"U+{ord(c):04X}")
def test_ids_with_hidden_characters_are_named_and_skipped(tmp_path, char):
    code = f"U+{ord(char):04X}"
    write_conversation_file(build_record("good"), tmp_path)
    # Not through the conversation id: the file's name is made from it.
    write_conversation_file(_with_profile_id("participant", f"p{char}1"), tmp_path)
    write_conversation_file(_with_model("model", f"gpt{char}x"), tmp_path)
    report = importer.import_folder(tmp_path, "hidden")
    assert report.imported == ["good"]
    rejected = dict(report.rejected)
    assert sorted(rejected) == ["conversation_model.json", "conversation_participant.json"]
    assert rejected["conversation_participant.json"].startswith(
        f"participant_profile.participant_id: contains {code} "
    )
    assert rejected["conversation_model.json"].startswith(f"metadata.model: contains {code} ")
    assert all(char not in reason for reason in rejected.values())
    assert list(Conversation.objects.values_list("external_id", flat=True)) == ["good"]
    assert Participant.objects.count() == 1
    assert not ModelEndpoint.objects.filter(model_name__contains=char).exists()


def test_a_conversation_id_with_a_bidi_override_is_refused(tmp_path):
    record = build_record("spoof")
    path = write_conversation_file(record, tmp_path)
    path.write_text(path.read_text().replace('"spoof"', '"spo\\u202eof"'), encoding="utf-8")
    report = importer.import_folder(tmp_path, "hidden")
    assert report.imported == []
    [(name, reason)] = report.rejected
    assert name == path.name and reason.startswith("conversationId: contains U+202E ")
    assert not Conversation.objects.exists()


def test_ordinary_unicode_ids_are_imported(tmp_path):
    write_conversation_file(_with_profile_id("accents", "zoë-Ñandú-中文-שלום"), tmp_path)
    assert importer.import_folder(tmp_path, "hidden").imported == ["accents"]
