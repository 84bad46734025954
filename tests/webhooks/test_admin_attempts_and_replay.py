"""The admin lists a user's deliveries and each attempt's answer, and replays a finished
delivery (audited; the same event id, a fresh signature). Others see none of it."""

import pytest
from django.urls import reverse

from annotations.models import AuditEntry
from tests.factories import make_staff
from webhooks.event_types import EventType
from webhooks.events import emit
from webhooks.models import WebhookAttempt, WebhookDelivery

pytestmark = pytest.mark.django_db


@pytest.fixture
def delivered(lab, subscribe, receiver, run_deliveries, django_capture_on_commit_callbacks):
    first, _, member = lab
    subscribe(member, [first], [EventType.RELEASE_FAILED])
    receiver.fail_next(1)
    with django_capture_on_commit_callbacks(execute=True):
        emit(EventType.RELEASE_FAILED, first.pk, {"release_id": 9})
    run_deliveries()
    return WebhookDelivery.objects.get()


def test_the_admin_lists_the_deliveries_and_attempts(client, lab, delivered):
    client.force_login(lab[2])
    listing = client.get(reverse("admin:webhooks_webhookdelivery_changelist"))
    assert listing.status_code == 200
    assert delivered.event.event_id in listing.text
    page = client.get(reverse("admin:webhooks_webhookdelivery_change", args=[delivered.pk]))
    assert page.status_code == 200
    assert "failing on purpose" in page.text  # the first attempt's answer
    assert page.text.count('<td class="field-status_code">') == 2
    assert "Replay this delivery" in page.text


def test_replay_sends_the_event_again_and_is_audited(
    client, lab, delivered, receiver, run_deliveries, django_capture_on_commit_callbacks
):
    client.force_login(lab[2])
    url = reverse("admin:webhooks_webhookdelivery_replay", args=[delivered.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url)
    assert response.status_code == 302
    run_deliveries()
    assert len(receiver.received) == 3
    assert receiver.received[-1].verified
    assert receiver.received[-1].headers["webhook-id"] == delivered.event.event_id
    last = WebhookAttempt.objects.order_by("number").last()
    assert last.replay and last.ok
    entry = AuditEntry.objects.get(action="webhooks.delivery.replay")
    assert entry.actor == lab[2]


def test_replay_is_post_only(client, lab, delivered):
    client.force_login(lab[2])
    url = reverse("admin:webhooks_webhookdelivery_replay", args=[delivered.pk])
    assert client.get(url).status_code == 405


def test_another_user_sees_no_delivery_and_cannot_replay(client, lab, delivered):
    other = make_staff("researcher", studies={lab[0]: "researcher"})
    client.force_login(other)
    listing = client.get(reverse("admin:webhooks_webhookdelivery_changelist"))
    assert delivered.event.event_id not in listing.text
    change = reverse("admin:webhooks_webhookdelivery_change", args=[delivered.pk])
    assert client.get(change).status_code == 302  # the admin's "not found" redirect
    replay = reverse("admin:webhooks_webhookdelivery_replay", args=[delivered.pk])
    assert client.post(replay).status_code == 404
    assert not AuditEntry.objects.filter(action="webhooks.delivery.replay").exists()
