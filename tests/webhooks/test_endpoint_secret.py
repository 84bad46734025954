"""The endpoint's secret: generated, shown once on the page that answers its creation, stored
encrypted, and never in an audit entry, a log or a later page."""

import logging

import pytest
from django.urls import reverse

from annotations.models import AuditEntry
from webhooks import secret_box
from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db


def test_the_secret_is_shown_once_and_stored_encrypted(client, lab, caplog):
    first, _, member = lab
    client.force_login(member)
    caplog.set_level(logging.DEBUG)
    created = client.post(
        reverse("admin:webhooks_webhookendpoint_add"),
        {
            "url": "http://127.0.0.1:9/hook",
            "description": "lab bot",
            "studies": [first.pk],
            "events": ["release.frozen", "study.full"],
            "is_active": "on",
        },
    )
    assert created.status_code == 200
    assert "no-store" in created["Cache-Control"]
    endpoint = WebhookEndpoint.objects.get()
    secret = secret_box.unseal(endpoint.secret_encrypted)
    assert secret.startswith("whsec_") and secret in created.text
    assert secret not in endpoint.secret_encrypted
    assert endpoint.events == ["release.frozen", "study.full"]

    change = client.get(reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk]))
    listing = client.get(reverse("admin:webhooks_webhookendpoint_changelist"))
    assert secret not in change.text and secret not in listing.text
    assert "whsec_" not in change.text
    entry = AuditEntry.objects.get(action="webhooks.endpoint.create")
    assert secret not in str(entry.data) and entry.actor == member
    assert secret not in caplog.text


def test_a_change_is_audited_and_keeps_the_secret(client, lab):
    from webhooks import services

    first, _, member = lab
    endpoint, secret = services.register_endpoint(
        member, url="http://127.0.0.1:9/hook", study_ids=[first.pk], events=["study.full"]
    )
    client.force_login(member)
    response = client.post(
        reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk]),
        {"url": "https://example.org/hook", "studies": [first.pk], "events": ["qa_queue.empty"]},
    )
    assert response.status_code == 302
    endpoint.refresh_from_db()
    assert (endpoint.url, endpoint.events, endpoint.is_active) == (
        "https://example.org/hook",
        ["qa_queue.empty"],
        False,
    )
    assert secret_box.unseal(endpoint.secret_encrypted) == secret
    assert AuditEntry.objects.filter(action="webhooks.endpoint.update").count() == 1
