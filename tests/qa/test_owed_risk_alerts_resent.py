"""A risk alert is owed until it has run: if its message is lost (a broker error after the
chat's commit) or it could not send its email, the workers' sweep asks for it again once the
bound has passed, once however many workers sweep; an alert that ran is no longer owed."""

import pytest

from annotations.dispatch import RISK_ALERT
from annotations.models import Conversation, ConversationState, Turn
from annotations.qa.services import risk_alerts
from annotations.qa.services.risk_alerts import run_risk_alert, sweep_risk_alerts
from annotations.services import safety
from attune_collect.dispatch import resend_bound
from tests.factories import build_record, build_turn, make_conversation

pytestmark = pytest.mark.django_db


@pytest.fixture
def sweep(sweep_at):
    return lambda after_s: sweep_at(sweep_risk_alerts, after_s)


@pytest.fixture
def lost_alert(study, broker_outage, django_capture_on_commit_callbacks) -> Turn:
    """A message that signalled risk while the broker was down: its alert never left."""
    study.safety_contacts = "lead@example.org"
    study.save()
    record = build_record(turns=(build_turn(1, user_message="I want to end my life"),))
    conversation = make_conversation(study, record=record)
    Conversation.objects.filter(pk=conversation.pk).update(state=ConversationState.CHATTING)
    turn = Turn.objects.get(conversation=conversation)
    with broker_outage(), django_capture_on_commit_callbacks(execute=True):
        assert safety.check_message(turn, study, actor_label="test") is not None
    return turn


def test_a_lost_alert_is_asked_for_again_then_no_longer_owed(
    lost_alert, sent_tasks, sweep, mailoutbox
):
    assert sent_tasks[RISK_ALERT] == []
    bound_s = resend_bound().total_seconds()
    assert sweep(bound_s - 5) == []
    assert sweep(bound_s + 1) == [lost_alert.pk]
    assert sweep(bound_s + 1) == []  # another worker's sweep
    assert sent_tasks[RISK_ALERT] == [lost_alert.pk]

    assert run_risk_alert(lost_alert.pk) == 1  # what the worker does
    assert len(mailoutbox) == 1
    assert sweep(10 * bound_s) == []


def test_an_alert_whose_email_failed_is_asked_for_again(lost_alert, sweep, monkeypatch):
    def smtp_down(**kwargs):
        raise ConnectionRefusedError("SMTP server down")

    monkeypatch.setattr(risk_alerts, "send_mail", smtp_down)
    with pytest.raises(ConnectionRefusedError):
        run_risk_alert(lost_alert.pk)
    assert sweep(resend_bound().total_seconds() + 1) == [lost_alert.pk]
