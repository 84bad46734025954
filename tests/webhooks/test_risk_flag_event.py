"""``risk_flag.raised``: sent when the risk flag of a conversation is raised (during the chat,
by the risk alert), once; it names the flag and the conversation, never the message."""

import pytest

from annotations.models import Conversation, ConversationState, Turn
from annotations.qa.services.risk_alerts import run_risk_alert
from annotations.services import safety
from tests.factories import build_record, build_turn, make_conversation, make_staff
from webhooks.event_types import EventType

pytestmark = pytest.mark.django_db

RISKY_MESSAGE = "I don’t want to be alive anymore"


@pytest.fixture
def risky_turn(lab):
    study = lab[0]
    record = build_record(turns=(build_turn(1, user_message=RISKY_MESSAGE),))
    conversation = make_conversation(study, record=record)
    Conversation.objects.filter(pk=conversation.pk).update(state=ConversationState.CHATTING)
    turn = Turn.objects.get(conversation=conversation)
    assert safety.check_message(turn, study, actor_label="test") is not None
    return turn


def test_the_risk_flag_sends_one_event_without_the_message(
    lab, risky_turn, subscribe, receiver, run_deliveries, django_capture_on_commit_callbacks
):
    reviewer = make_staff("qa_reviewer", studies={lab[0]: "qa_reviewer"})
    subscribe(reviewer, [lab[0]], [EventType.RISK_FLAG_RAISED])
    with django_capture_on_commit_callbacks(execute=True):
        run_risk_alert(risky_turn.pk)
        run_risk_alert(risky_turn.pk)  # asked again (the sweep, the moderation model): no new flag
    run_deliveries()
    (got,) = receiver.received
    assert got.verified and got.json["type"] == "risk_flag.raised"
    flag = risky_turn.conversation.qa_flags.get()
    assert got.json["data"] == {
        "flag_id": flag.pk,
        "conversation_id": risky_turn.conversation_id,
        "study_ids": [lab[0].pk],
    }
    assert b"alive" not in got.body
