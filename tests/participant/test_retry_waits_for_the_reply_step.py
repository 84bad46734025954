"""A retry that comes while the first stream is storing its reply (a second tab, or the app
after a lease lapsed while its stream lived on) waits for that step and replays the stored
reply. Deciding on a status read before that commit set the answered turn streaming again:
a second model call, whose reply could never be stored, and a chat that could not go on."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from annotations.models import Conversation, Participant, Turn, TurnStatus
from annotations.services import chat
from tests.participant.conftest import fake_completion
from tests.threads import in_a_thread, until_another_waits_for_a_lock

pytestmark = pytest.mark.django_db(transaction=True)
TEXT, KEY = "Are you there?", "key-retry-during-reply"


@pytest.mark.parametrize(
    "again",
    [
        pytest.param(lambda participant: chat.retry_turn(participant, 1), id="retry"),
        pytest.param(
            lambda participant: chat.accept_message(participant, TEXT, KEY), id="resubmit"
        ),
    ],
)
def test_the_answered_turn_is_replayed_not_restarted(participant_client, again):
    client = participant_client()
    client.onboard()
    plan = chat.accept_message(Participant.objects.get(prolific_pid=client.pid), TEXT, KEY)
    # Not the conversation's first reply (that step also writes the model's name on the
    # conversation, which the retry locks first), and the first stream's lease has lapsed.
    Conversation.objects.update(model_version="attune-demo/listener")
    Turn.objects.update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    plans: list[chat.ChatPlan] = []

    with transaction.atomic():  # the first stream's reply step, not committed yet
        assert chat.record_reply(plan.turn_id, fake_completion("I am here.")) is not None
        second = in_a_thread(
            lambda: plans.append(again(Participant.objects.get(prolific_pid=client.pid)))
        )
        until_another_waits_for_a_lock()
    second.join(timeout=20)

    assert plans and plans[0].replay == "I am here."
    turn = Turn.objects.get(pk=plan.turn_id)
    assert (turn.status, turn.model_reply) == (TurnStatus.DONE, "I am here.")
    assert turn.stream_claim == plan.claim  # no second stream took the turn
