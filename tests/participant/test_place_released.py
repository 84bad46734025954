"""A participant whose place was freed (their Prolific submission returned, or their
conversation idle past the study's bound) and who comes back sees a clear ending: the session
is at the screened-out step with no code, and a step they send is refused (403
``place_released``), never a crash."""

from __future__ import annotations

import pytest

from annotations.models import Conversation, ConversationState
from annotations.prolific.places import free_place

pytestmark = pytest.mark.django_db


def test_a_returned_participant_sees_the_end(make_chat_study, participant_client):
    study = make_chat_study(target_participants=1)
    client = participant_client(study)
    assert client.start().status == 201
    assert client.post("consent", {"consent_version": "2", "agree": True}).status == 200
    conversation = Conversation.objects.get(participant__study=study)
    assert free_place(conversation.participant_id, "RETURNED", actor_label="system:test")

    session = client.session()
    assert session["step"] == "screened_out" and session["screenout"] is None
    refused = client.post("consent", {"consent_version": "2", "agree": True})
    assert refused.status == 403 and refused.error["code"] == "place_released"
    conversation.refresh_from_db()
    assert conversation.state == ConversationState.ABANDONED
    # The place is free again: a newcomer takes it.
    newcomer = participant_client(study)
    assert newcomer.start().status == 201
