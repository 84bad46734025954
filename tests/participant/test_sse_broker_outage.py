"""A broker outage delays the improved reply, never loses it: when the broker refuses the
improver's task after the chat's commit, the stream still ends with ``done`` (the turn is
stored); once the broker is back, the workers' sweep sends the task again, and the improved
reply is written and offered to the participant within the comparison's window."""

from datetime import timedelta

import pytest
from django.utils import timezone

from annotations.models import ImprovedStatus, Turn, TurnAnnotation
from annotations.services.annotation_flow import improver_resend_after
from annotations.services.improver import run_improver, sweep_improved_replies

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_stream_ends_done_and_the_improved_reply_comes_once_the_broker_is_back(
    chat_study, live_participant, improver_queue, broker_outage
):
    client = live_participant(chat_study)
    client.onboard()
    with broker_outage():
        result = client.send("I keep worrying about my exam tomorrow.")
    assert result.names[0] == "turn" and result.names[-1] == "done"
    turn = Turn.objects.get()
    assert improver_queue == []  # the improver's task was lost with the broker
    assert TurnAnnotation.objects.get(turn=turn).improved_status == ImprovedStatus.PENDING

    # The broker is back.
    assert sweep_improved_replies() == []  # the first message's time has not run out
    later = timezone.now() + improver_resend_after() + timedelta(seconds=1)
    assert sweep_improved_replies(later) == [turn.pk]
    assert sweep_improved_replies(later) == []  # claimed: another worker's sweep sends nothing
    assert improver_queue == [turn.pk]

    assert run_improver(turn.pk) == "ready"  # what the worker does with the message
    annotation = TurnAnnotation.objects.get(turn=turn)
    assert annotation.improved_status == ImprovedStatus.READY and annotation.llm_improved_reply
    assert "late" not in annotation.improved_meta
    comparison = client.get("turns/1/annotation").body["comparison"]
    assert comparison["status"] == "ready" and comparison["responses"]
