"""One event is sent once per endpoint however many messages ask for it at once: the claim
(a conditional update of the lease) lets one worker through; the others do nothing."""

import threading

import pytest

from tests.threads import in_a_thread
from webhooks.delivery import deliver
from webhooks.event_types import EventType
from webhooks.events import emit
from webhooks.models import WebhookAttempt, WebhookDelivery

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def delivery_id(lab, subscribe, sent_tasks):
    first, _, member = lab
    subscribe(member, [first], [EventType.RELEASE_FROZEN])
    emit(EventType.RELEASE_FROZEN, first.pk, {"release_id": 4})  # no transaction: at once
    (sent,) = sent_tasks["webhooks.deliver"]
    return sent


def test_workers_starting_together_send_once(delivery_id, receiver):
    barrier = threading.Barrier(4)
    results = []

    def work() -> None:
        barrier.wait()
        results.append(deliver(delivery_id))

    for thread in [in_a_thread(work) for _ in range(4)]:
        thread.join()
    assert len([r for r in results if r is not None]) == 1
    assert len(receiver.received) == 1
    assert WebhookDelivery.objects.get().attempts == 1


def test_a_message_during_a_send_in_flight_does_nothing(delivery_id, receiver):
    release = receiver.hold()
    first = in_a_thread(lambda: deliver(delivery_id))
    assert receiver.arrived.wait(10)  # the first worker's request is at the receiver
    assert deliver(delivery_id) is None
    release.set()
    first.join()
    assert len(receiver.received) == 1
    assert WebhookAttempt.objects.count() == 1
    assert WebhookDelivery.objects.get().status == "succeeded"
