"""Each event type an endpoint subscribed to arrives once, signed with the endpoint's secret,
naming ids only; an event of another type or study does not arrive."""

import pytest

from webhooks.event_types import EventType
from webhooks.events import emit
from webhooks.models import WebhookDelivery

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("event_type", list(EventType))
def test_the_event_arrives_once_signed(
    event_type, lab, subscribe, receiver, run_deliveries, django_capture_on_commit_callbacks
):
    first, _, member = lab
    subscribe(member, [first], [event_type])
    with django_capture_on_commit_callbacks(execute=True):
        emit(event_type, first.pk, {"thing_id": 7})
    run_deliveries()
    run_deliveries()  # nothing left: a second pass sends nothing more

    (got,) = receiver.received
    assert got.verified
    assert got.json["type"] == event_type
    assert got.json["data"] == {"thing_id": 7, "study_ids": [first.pk]}
    assert got.headers["webhook-id"] == got.json["id"]
    assert WebhookDelivery.objects.get().status == "succeeded"


def test_a_duplicate_message_sends_nothing_twice(
    lab, subscribe, receiver, sent_tasks, run_deliveries, django_capture_on_commit_callbacks
):
    first, _, member = lab
    subscribe(member, [first], [EventType.STUDY_FULL])
    with django_capture_on_commit_callbacks(execute=True):
        emit(EventType.STUDY_FULL, first.pk, {"study_id": first.pk})
    sent_tasks["webhooks.deliver"] *= 2  # the broker delivered the message twice
    assert run_deliveries() == 2
    assert len(receiver.received) == 1


def test_other_types_and_studies_do_not_arrive(
    lab, subscribe, receiver, run_deliveries, django_capture_on_commit_callbacks
):
    first, second, member = lab
    subscribe(member, [first], [EventType.STUDY_FULL])
    with django_capture_on_commit_callbacks(execute=True):
        emit(EventType.QA_QUEUE_EMPTY, first.pk, {"study_id": first.pk})
        emit(EventType.STUDY_FULL, second.pk, {"study_id": second.pk})
    run_deliveries()
    assert receiver.received == []


def test_payloads_take_ids_only(lab):
    first, _, _ = lab
    with pytest.raises(TypeError):
        emit(EventType.RISK_FLAG_RAISED, first.pk, {"message": "participant text"})
