"""The workers' sweep sends an improved reply's task again when no worker took it by its time,
only while the comparison can still reach the participant, and once however many workers
sweep; a worker calling the improver is left alone (a duplicate message makes no second call),
and past the window nothing is sent but a late result is still stored."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from annotations.models import ImprovedStatus, TurnAnnotation
from annotations.services import annotation_flow, improver
from annotations.services.improver import run_improver, sweep_improved_replies

pytestmark = pytest.mark.django_db


@pytest.fixture
def owed(participant_client, answered_turn, improver_queue) -> int:
    """A turn whose improved reply was asked for and never taken by a worker (its message
    lost); its id. The first message is forgotten, so only what the sweep sends is left."""
    client = participant_client()
    client.onboard()
    answered_turn(client, improve=False)
    turn_id = improver_queue.pop()
    assert TurnAnnotation.objects.get(turn_id=turn_id).improved_status == ImprovedStatus.PENDING
    return turn_id


@pytest.fixture
def sweep(sweep_at):
    """One worker's sweep, ``after_s`` seconds from now; the turns it sent."""
    return lambda after_s: sweep_at(sweep_improved_replies, after_s)


def _in(seconds: float) -> datetime:
    return timezone.now() + timedelta(seconds=seconds)


def _resend_s() -> float:
    return annotation_flow.improver_resend_after().total_seconds()


def test_an_untaken_task_is_sent_again_once_within_the_window(owed, improver_queue, sweep):
    assert sweep(_resend_s() - 1) == []  # its message may be on its way
    assert sweep(_resend_s() + 1) == [owed]
    assert sweep(_resend_s() + 1) == []  # another worker's sweep
    assert improver_queue == [owed]
    assert sweep(2 * _resend_s() + 2) == [owed]  # lost again: again


def test_a_worker_calling_the_improver_is_left_alone(owed, improver_queue, sweep, monkeypatch):
    # What a worker's claim leaves while it waits for the model: a live lease on the call.
    TurnAnnotation.objects.filter(turn_id=owed).update(improver_lease_until=_in(60))
    assert sweep(_resend_s() + 1) == []

    def no_second_call():
        raise AssertionError("a duplicate message called the improver again")

    monkeypatch.setattr(improver, "default_gateway", no_second_call)
    assert run_improver(owed) == "skipped"  # a duplicate message meanwhile
    assert TurnAnnotation.objects.get(turn_id=owed).improved_status == ImprovedStatus.PENDING
    assert improver_queue == []


def test_past_the_window_nothing_is_sent_and_a_late_result_is_kept(owed, improver_queue, sweep):
    window_s = annotation_flow.improved_reply_timeout().total_seconds()
    assert sweep(window_s + 1) == []
    annotation = TurnAnnotation.objects.get(turn_id=owed)
    assert annotation.improved_status == ImprovedStatus.PENDING  # not given up: still welcome
    TurnAnnotation.objects.filter(turn_id=owed).update(started_at=_in(-window_s - 1))
    assert run_improver(owed) == "ready"  # a worker's result arrives after the window
    annotation.refresh_from_db()
    assert annotation.llm_improved_reply and annotation.improved_meta["late"] is True
    assert annotation_flow.comparison_status(annotation) == ImprovedStatus.UNAVAILABLE
