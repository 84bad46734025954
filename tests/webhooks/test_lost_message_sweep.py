"""A delivery whose message was lost (a broker error, a worker killed in the middle) is sent
again by the workers' sweep once its ``resend_at`` passes, by one sweep only."""

import pytest

from webhooks.delivery import sweep_webhook_deliveries
from webhooks.event_types import EventType
from webhooks.events import emit
from webhooks.models import WebhookDelivery

pytestmark = pytest.mark.django_db


def test_the_sweep_sends_a_lost_delivery_again(
    lab, subscribe, sent_tasks, sweep_at, django_capture_on_commit_callbacks
):
    first, _, member = lab
    subscribe(member, [first], [EventType.QA_QUEUE_EMPTY])
    with django_capture_on_commit_callbacks(execute=True):
        emit(EventType.QA_QUEUE_EMPTY, first.pk, {"study_id": first.pk})
    delivery = WebhookDelivery.objects.get()
    sent_tasks.clear()  # the message is lost
    assert sweep_at(sweep_webhook_deliveries) == []  # not owed yet
    assert sweep_at(sweep_webhook_deliveries, after_s=10_000) == [delivery.pk]
    assert sweep_at(sweep_webhook_deliveries, after_s=10_000) == []  # claimed: moved on
    assert sent_tasks["webhooks.deliver"] == [delivery.pk]
