"""Withdrawal: the participant is marked, their open conversation is abandoned, later writes
are refused, and the release builder leaves their data out."""

import pytest

from annotations.models import Conversation, ConversationState, Participant
from annotations.releases.services import create_release, selected_conversations

pytestmark = pytest.mark.django_db


def test_withdrawing_marks_the_participant_and_stops_the_study(participant_client, answered_turn):
    client = participant_client()
    client.onboard()
    answered_turn(client)
    reply = client.post("withdraw", {"confirm": True})
    assert reply.status == 200 and reply.body["step"] == "withdrawn"
    participant = Participant.objects.get(prolific_pid=client.pid)
    assert participant.withdrawn and participant.withdrawn_at is not None
    assert Conversation.objects.get(participant=participant).state == ConversationState.ABANDONED
    assert client.post("finish").error["code"] == "withdrawn"
    assert client.session()["step"] == "withdrawn"  # they can still see where they stand


def test_withdrawal_needs_confirmation(participant_client):
    client = participant_client()
    client.start()
    reply = client.post("withdraw", {"confirm": False})
    assert reply.status == 400 and reply.error["field"] == "confirm"
    assert not Participant.objects.get(prolific_pid=client.pid).withdrawn


def test_a_withdrawn_participant_is_left_out_of_releases(chat_study, participant_client):
    stays, leaves = participant_client(), participant_client()
    for client in (stays, leaves):
        client.onboard()
    leaves.post("withdraw", {"confirm": True})
    release = create_release(
        name="attunebench",
        version="9.0.0",
        studies=[chat_study],
        completed_only=False,
        actor_label="test",
    )
    chosen, left_out = selected_conversations(release)
    assert list(chosen.values_list("participant__prolific_pid", flat=True)) == [stays.pid]
    assert left_out["withdrawn"] == 1
