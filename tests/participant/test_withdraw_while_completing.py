"""A participant who withdraws while their post-chat survey completes the conversation (two
taps, two tabs) is withdrawn, and the completed conversation stays completed: the withdrawal
waits for the survey's step instead of turning a completed conversation into an abandoned one,
a move the conversation's states do not allow."""

import time

import pytest
from django.db import transaction

from annotations.models import Conversation, ConversationState, Participant
from annotations.services import participants, surveys
from tests.threads import in_a_thread

pytestmark = pytest.mark.django_db(transaction=True)

POST_SURVEY = {
    "looking_for": ["vent"],
    "emotion_clarity": "clear",
    "model_fit": "mixed",
    "what_felt_off": [],
    "four_branch": {"perceiving": 5, "facilitating": 4, "understanding": 6, "managing": 3},
}


def test_a_completed_conversation_stays_completed(participant_client, answered_turn):
    client = participant_client()
    client.onboard()
    assert client.annotate(answered_turn(client)).status == 200
    assert client.post("finish", {}).status == 200
    assert client.post("panas/post", {"items": client.panas_items(4)}).status == 200

    with transaction.atomic():  # the survey's step, not committed yet
        surveys.submit_post_survey(Participant.objects.get(prolific_pid=client.pid), **POST_SURVEY)
        leaving = in_a_thread(
            lambda: participants.withdraw(Participant.objects.get(prolific_pid=client.pid))
        )
        time.sleep(0.3)  # the withdrawal reads the open conversations meanwhile
    leaving.join(timeout=20)

    conversation = Conversation.objects.get()
    assert conversation.state == ConversationState.COMPLETED
    assert conversation.completed_at is not None
    assert Participant.objects.get(prolific_pid=client.pid).withdrawn
