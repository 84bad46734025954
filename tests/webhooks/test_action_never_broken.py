"""A webhook never breaks the action that caused it: not a receiver that is down, not a broker
that refuses the message, not an error while recording the event."""

import logging

import pytest

from annotations.models import Participant
from annotations.services.participants import give_consent
from tests.factories import make_participant
from webhooks import events, services
from webhooks.event_types import EventType
from webhooks.models import WebhookAttempt, WebhookDelivery

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_study_subscribed(lab):
    first, _, member = lab
    first.target_participants = 1
    first.save()
    services.register_endpoint(
        member, url="http://127.0.0.1:1/hook", study_ids=[first.pk], events=["study.full"]
    )  # port 1 of loopback: nothing listens, the connection is refused
    return first


def consented(study) -> bool:
    person = make_participant(study, prolific_pid="PID-LAST")
    give_consent(person, consent_version="1", agree=True)
    return Participant.objects.get(pk=person.pk).consented_at is not None


def test_a_receiver_that_is_down_fails_only_its_attempt(
    full_study_subscribed, run_deliveries, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert consented(full_study_subscribed)
    run_deliveries()
    attempts = WebhookAttempt.objects.all()
    assert len(attempts) == 4 and all(a.status_code is None and a.error for a in attempts)
    assert WebhookDelivery.objects.get().status == "failed"


def test_a_broker_outage_leaves_the_delivery_to_the_sweep(
    full_study_subscribed, broker_outage, django_capture_on_commit_callbacks
):
    with broker_outage(), django_capture_on_commit_callbacks(execute=True):
        assert consented(full_study_subscribed)
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "pending" and delivery.resend_at is not None


def test_an_error_recording_the_event_is_logged_not_raised(
    full_study_subscribed, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    def broken(*args, **kwargs):
        raise RuntimeError("the database said no")

    monkeypatch.setattr(events, "record", broken)
    with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
        assert consented(full_study_subscribed)
    assert "could not record webhook event study.full" in caplog.text
    assert not WebhookDelivery.objects.exists()


def test_nothing_is_sent_for_an_action_rolled_back(full_study_subscribed, sent_tasks):
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        events.emit(EventType.STUDY_FULL, full_study_subscribed.pk, {"study_id": 1})
        raise RuntimeError("the action failed")
    assert not WebhookDelivery.objects.exists() and not sent_tasks
