"""import_attunebench refuses a conversation without messages (no turn, or no turn with the
participant's words): such a record would be a study conversation with nothing in it. The file
is named with the field, and nothing of it is stored (issue 36)."""

import dataclasses

import pytest

from annotations.interchange import importer
from annotations.models import Conversation, Participant
from attunebench.writer import write_conversation_file
from tests.factories import build_record, build_turn

pytestmark = pytest.mark.django_db


def test_records_without_messages_are_named_and_skipped(tmp_path):
    write_conversation_file(build_record("good"), tmp_path)
    write_conversation_file(build_record("no-turns", n_turns=0), tmp_path)
    blank = (build_turn(1, user_message=""), build_turn(2, user_message=" \n\t"))
    write_conversation_file(build_record("blank-messages", turns=blank), tmp_path)
    report = importer.import_folder(tmp_path, "no-messages")
    assert report.imported == ["good"]
    assert dict(report.rejected) == {
        "conversation_blank-messages.json": "turns: no turn has a userMessage; "
        "a conversation without messages is not imported",
        "conversation_no-turns.json": "turns: no turn; a conversation without messages is not "
        "imported",
    }
    assert list(Conversation.objects.values_list("external_id", flat=True)) == ["good"]
    assert Participant.objects.count() == 1


def test_one_turn_with_a_message_is_enough(tmp_path):
    turns = (build_turn(1, user_message=""), build_turn(2))
    write_conversation_file(dataclasses.replace(build_record("one-message"), turns=turns), tmp_path)
    assert importer.import_folder(tmp_path, "no-messages").imported == ["one-message"]
