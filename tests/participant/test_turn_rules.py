"""What the chat refuses, with a clear error and nothing written: messages over the length
limit, empty ones, messages out of turn, past the maximum, or from another participant."""

import pytest

from annotations.models import Turn
from annotations.services.chat import MAX_MESSAGE_CHARS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def chatting(make_chat_study, live_participant):
    study = make_chat_study(max_turns=2)
    study.improver_endpoint = None  # annotate without waiting for a comparison
    study.save()
    client = live_participant(study)
    client.onboard()
    return client


def test_a_message_over_the_limit_is_refused(chatting):
    reply = chatting.send("x" * (MAX_MESSAGE_CHARS + 1))
    assert reply.status == 400
    assert reply.body["error"]["field"] == "text"
    assert str(MAX_MESSAGE_CHARS) in reply.body["error"]["message"]
    assert chatting.send(" \n ").body["error"]["field"] == "text"
    assert not Turn.objects.exists()


def test_the_next_message_waits_for_the_annotation(chatting):
    chatting.send("first")
    refused = chatting.send("second")
    assert refused.status == 409 and refused.body["error"]["code"] == "out_of_turn"
    assert "questions" in refused.body["error"]["message"]
    assert chatting.annotate(1).status == 200
    assert chatting.send("second").names[-1] == "done"


def test_the_maximum_number_of_turns_is_enforced(chatting):
    for number in (1, 2):
        chatting.send(f"message {number}")
        chatting.annotate(number)
    assert chatting.session()["chat"]["can_send"] is False
    refused = chatting.send("one too many")
    assert refused.status == 409 and refused.body["error"]["code"] == "max_turns_reached"
    assert Turn.objects.count() == 2


def test_no_message_before_the_chat_opens(chat_study, live_participant):
    client = live_participant(chat_study)
    client.start()
    refused = client.send("hello?")
    assert refused.status == 409 and refused.body["error"]["code"] == "wrong_step"


def test_another_participants_token_cannot_reach_a_turn(chatting, live_participant, chat_study):
    chatting.send("mine")
    other = live_participant(chat_study)
    other.onboard()
    assert other.retry(1).status == 404  # their own conversation has no turn 1
    other.token = "forged-token"
    assert other.send("hi").status == 401
    assert Turn.objects.count() == 1
