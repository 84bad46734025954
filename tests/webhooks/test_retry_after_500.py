"""A receiver that answers 500 twice gets the third attempt; each attempt is kept, the wait
doubles between them, and a delivery gives up after the configured attempts."""

from datetime import timedelta

import pytest

from webhooks.event_types import EventType
from webhooks.events import emit
from webhooks.models import WebhookAttempt, WebhookDelivery

pytestmark = pytest.mark.django_db


@pytest.fixture
def emitted(lab, subscribe, sent_tasks, django_capture_on_commit_callbacks):
    first, _, member = lab
    subscribe(member, [first], [EventType.RELEASE_FROZEN])
    with django_capture_on_commit_callbacks(execute=True):
        emit(EventType.RELEASE_FROZEN, first.pk, {"release_id": 1})


def test_the_third_attempt_after_two_500s_delivers(emitted, receiver, run_deliveries):
    receiver.fail_next(2)
    assert run_deliveries() == 3
    assert [r.status for r in receiver.received] == [500, 500, 200]
    assert all(r.verified for r in receiver.received)
    assert len({r.headers["webhook-id"] for r in receiver.received}) == 1  # one event id
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts) == ("succeeded", 3)
    assert list(WebhookAttempt.objects.values_list("number", "status_code", "ok")) == [
        (1, 500, False),
        (2, 500, False),
        (3, 200, True),
    ]


def test_the_wait_doubles(settings, emitted, receiver, sent_tasks):
    from dataclasses import replace

    from webhooks.delivery import backoff_s, deliver

    settings.ATTUNE = replace(settings.ATTUNE, webhook_backoff_s=30)
    assert [backoff_s(n) for n in (1, 2, 3)] == [30, 60, 120]
    receiver.fail_next(1)
    deliver(sent_tasks["webhooks.deliver"].pop())
    delivery = WebhookDelivery.objects.get()
    wait = delivery.next_attempt_at - delivery.attempt_rows.get().started_at
    assert timedelta(seconds=29) < wait < timedelta(seconds=31)
    assert sent_tasks["webhooks.deliver"] == [delivery.pk]  # the retry's message


def test_it_gives_up_after_the_last_attempt(emitted, receiver, run_deliveries):
    receiver.fail_next(10)
    assert run_deliveries() == 4  # webhook_max_attempts in this folder's conftest
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("failed", 4, 500)
