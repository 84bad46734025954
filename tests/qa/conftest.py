"""Helpers for the QA tests."""

from __future__ import annotations

import pytest

from annotations.models import Conversation, ConversationState, Turn
from annotations.qa.models import Flag
from annotations.qa.services.flagging import compute_flags
from annotations.services import safety
from tests.factories import build_record, build_turn, make_conversation

RISKY_MESSAGE = "I don’t want to be alive anymore"


def flags_of(conversation, *, compute: bool = True) -> dict[str, Flag]:
    """The conversation's automatic flags by type, computed first unless told otherwise."""
    if compute:
        compute_flags([conversation.pk], actor_label="test")
    return {
        f.flag_type: f for f in Flag.objects.filter(conversation=conversation, source="automatic")
    }


@pytest.fixture
def reviewer_client(client, reviewer):
    client.force_login(reviewer)
    return client


@pytest.fixture
def risky_turn(study):
    """A chatting conversation's message that signalled risk, in a study with two contacts."""
    study.safety_contacts = "lead@example.org,\nnurse@example.org"
    study.save()
    record = build_record(turns=(build_turn(1, user_message=RISKY_MESSAGE),))
    conversation = make_conversation(study, record=record)
    Conversation.objects.filter(pk=conversation.pk).update(state=ConversationState.CHATTING)
    turn = Turn.objects.get(conversation=conversation)
    assert safety.check_message(turn, study, actor_label="test") is not None
    return turn
