"""Drafts: nothing a participant typed is lost. The app saves as they type; the submit the
draft was for clears it."""

import pytest
from django.db.models.signals import post_delete, pre_delete

from annotations.models import AuditEntry, ParticipantDraft
from annotations.services.drafts import clear_drafts

pytestmark = pytest.mark.django_db


def test_a_draft_is_saved_read_back_and_replaced(participant_client):
    client = participant_client()
    client.start()
    assert client.put("drafts/message", {"data": {"text": "I wanted to say"}}).status == 200
    assert client.put("drafts/message", {"data": {"text": "I wanted to say that"}}).status == 200
    drafts = client.get("drafts").body
    assert [(d["key"], d["data"]) for d in drafts] == [
        ("message", {"text": "I wanted to say that"})
    ]
    assert not AuditEntry.objects.filter(action__contains="draft").exists()  # scratch, not a record


def test_drafts_survive_a_new_session_of_the_same_participant(participant_client):
    client = participant_client()
    client.start()
    client.put("drafts/annotation:1", {"data": {"edited_reply": "half written"}})
    other_device = participant_client(pid=client.pid)
    other_device.start()
    assert other_device.get("drafts").body[0]["data"] == {"edited_reply": "half written"}


def test_a_submit_clears_its_draft(participant_client, answered_turn):
    client = participant_client()
    client.onboard()
    client.put("drafts/annotation:1", {"data": {"mood": "Nervous"}})
    client.put("drafts/message", {"data": {"text": "next message"}})
    answered_turn(client)  # a new message was accepted: the message draft is done with
    assert [d["key"] for d in client.get("drafts").body] == ["annotation:1"]


def test_clearing_drafts_leaves_other_keys_and_other_participants_alone(participant_client):
    one, two = participant_client(), participant_client()
    for client in (one, two):
        client.start()
        client.put("drafts/message", {"data": {"text": "typed"}})
        client.put("drafts/profile", {"data": {"age": 30}})
    participant = ParticipantDraft.objects.filter(data={"text": "typed"}).first().participant
    clear_drafts(participant, "message", "annotation:9")
    left = sorted(ParticipantDraft.objects.values_list("participant_id", "key"))
    others = [(pid, key) for pid, key in left if pid != participant.pk]
    assert [key for pid, key in left if pid == participant.pk] == ["profile"]
    assert sorted(key for _, key in others) == ["message", "profile"]
    clear_drafts(participant)  # no keys: nothing to do
    assert ParticipantDraft.objects.count() == 3


def test_a_plain_delete_removes_all_a_draft_has():
    # clear_drafts's QuerySet.delete() is one DELETE statement (Django's fast delete) only
    # while no model refers to a draft and nothing listens for a draft's deletion.
    assert ParticipantDraft._meta.related_objects == ()
    assert not pre_delete.has_listeners(ParticipantDraft)
    assert not post_delete.has_listeners(ParticipantDraft)


def test_a_draft_can_be_deleted(participant_client):
    client = participant_client()
    client.start()
    client.put("drafts/profile", {"data": {"age": 3}})
    assert client.delete("drafts/profile").status == 204
    assert not ParticipantDraft.objects.exists()


@pytest.mark.parametrize(
    ("key", "data", "field"),
    [("Bad Key", {"x": 1}, "key"), ("message", {"text": "x" * 70_000}, "data")],
)
def test_bad_drafts_are_refused(participant_client, key, data, field):
    client = participant_client()
    client.start()
    reply = client.put(f"drafts/{key}", {"data": data})
    assert reply.status == 400 and reply.error["field"] == field


@pytest.mark.parametrize("key", ["Bad Key", "message%0A"])  # %0A: the pattern's $ took a newline
def test_a_key_no_draft_could_have_is_refused_on_save_and_delete(participant_client, key):
    """The schema states the key's pattern; Schemathesis found DELETE answering 204 to any key."""
    client = participant_client()
    client.start()
    for reply in (client.put(f"drafts/{key}", {"data": {"x": 1}}), client.delete(f"drafts/{key}")):
        assert reply.status == 400 and reply.error["field"] == "key", reply.body
    assert client.delete("drafts/never-saved").status == 204  # a valid key: deleting is no error
    assert not ParticipantDraft.objects.exists()
