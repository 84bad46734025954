"""A participant's drafts have a bound: so many keys (ATTUNE_DRAFT_MAX_COUNT) and so much JSON
in all (ATTUNE_DRAFT_MAX_TOTAL_KIB), besides 64 KiB a draft. A save past either is refused with
a clear 400 naming the field, and the drafts already saved are left as they were; replacing a
draft with one no larger is always taken (issue 36: 50 drafts of 64 KiB made 3 MB)."""

import dataclasses

import pytest

from annotations.models import ParticipantDraft

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_limits(settings):
    settings.ATTUNE = dataclasses.replace(
        settings.ATTUNE, draft_max_count=3, draft_max_total_kib=10
    )


def _stored(client) -> dict[str, object]:
    return {d["key"]: d["data"] for d in client.get("drafts").body}


def test_a_draft_past_the_count_is_refused_and_the_others_kept(participant_client, small_limits):
    client = participant_client()
    client.start()
    for key in ("message", "profile", "topic"):
        assert client.put(f"drafts/{key}", {"data": {"text": key}}).status == 200
    reply = client.put("drafts/post_survey", {"data": {"text": "one too many"}})
    assert reply.status == 400 and reply.error["code"] == "invalid"
    assert reply.error["field"] == "key" and "at most 3 drafts" in reply.error["message"]
    assert _stored(client) == {k: {"text": k} for k in ("message", "profile", "topic")}
    # A key already saved is replaced as before.
    assert client.put("drafts/message", {"data": {"text": "changed"}}).status == 200


def test_drafts_past_the_total_size_are_refused_and_the_others_kept(
    participant_client, small_limits
):
    client = participant_client()
    client.start()
    six_kib = {"text": "x" * 6000}
    assert client.put("drafts/annotation:1", {"data": six_kib}).status == 200
    reply = client.put("drafts/message", {"data": six_kib})
    assert reply.status == 400 and reply.error["field"] == "data", reply.body
    assert "at most 10 KiB in all" in reply.error["message"]
    assert _stored(client) == {"annotation:1": six_kib}
    # Growing the one draft within the total is taken; past it, refused and left as it was.
    assert client.put("drafts/annotation:1", {"data": {"text": "y" * 9000}}).status == 200
    assert client.put("drafts/annotation:1", {"data": {"text": "z" * 11000}}).status == 400
    assert _stored(client) == {"annotation:1": {"text": "y" * 9000}}


def test_the_limits_are_per_participant(participant_client, small_limits):
    one, two = participant_client(), participant_client()
    for client in (one, two):
        client.start()
        for key in ("message", "profile", "topic"):
            assert client.put(f"drafts/{key}", {"data": {"text": "x" * 3000}}).status == 200
    assert ParticipantDraft.objects.count() == 6


def test_the_defaults_leave_room_for_every_draft_the_app_keeps(settings):
    # The app's keys (message, profile, topic, panas:pre|post, post_survey, annotation:<n>) are
    # cleared on submit; a handful at once at most, each within 64 KiB.
    assert settings.ATTUNE.draft_max_count >= 10
    assert settings.ATTUNE.draft_max_total_kib >= 4 * 64
