"""Endpoints, events, deliveries and their attempts.

An endpoint belongs to the user who registered it and names the studies and event types it
wants. An event is recorded once (``event_id`` unique) after the action that caused it
commits; it gets one delivery per subscribed endpoint (unique per event and endpoint), and a
delivery is sent by whoever claims it (``lease_until``), each try kept as an attempt.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from webhooks.event_types import CHOICES


class WebhookEndpoint(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.URLField(max_length=500, help_text="http or https; where events are POSTed.")
    description = models.CharField(max_length=200, blank=True)
    studies = models.ManyToManyField("annotations.Study", related_name="webhook_endpoints")
    # Event type values (``event_types.EventType``), chosen among those the owner may see.
    events = models.JSONField(default=list)
    # The signing secret, encrypted (``secret_box.py``): shown once at creation, never again.
    secret_encrypted = models.TextField(editable=False)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "webhook endpoint"

    def __str__(self) -> str:
        return self.description or self.url

    def event_labels(self) -> str:
        labels = dict(CHOICES)
        return ", ".join(labels.get(e, e) for e in self.events)


class WebhookEvent(models.Model):
    event_id = models.CharField(max_length=40, unique=True)  # "evt_" + 32 hex: webhook-id
    event_type = models.CharField(max_length=40, choices=CHOICES)
    studies = models.ManyToManyField("annotations.Study", related_name="+")
    # Ids only (release_id, run_id, flag_id, ...): never participant content.
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.event_type} {self.event_id}"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    SUCCEEDED = "succeeded", "Delivered"
    FAILED = "failed", "Failed (attempts used up)"
    SKIPPED = "skipped", "Skipped (the owner may no longer see it)"


class WebhookDelivery(models.Model):
    event = models.ForeignKey(WebhookEvent, on_delete=models.CASCADE, related_name="deliveries")
    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    status = models.CharField(
        max_length=12, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    # The claim of the worker sending it now (a conditional update takes it).
    lease_until = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # When the sweep sends it again if its message was lost (None: nothing owed).
    resend_at = models.DateTimeField(null=True, blank=True, db_index=True)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    replaying = models.BooleanField(default=False)  # the next attempt is a user's replay
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "webhook deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["event", "endpoint"], name="webhooks_one_delivery_per_endpoint"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} -> endpoint {self.endpoint_id}"


class WebhookAttempt(models.Model):
    delivery = models.ForeignKey(
        WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_rows"
    )
    number = models.PositiveIntegerField()
    replay = models.BooleanField(default=False)
    started_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField(default=0)
    status_code = models.PositiveIntegerField(null=True, blank=True)
    ok = models.BooleanField(default=False)
    response_excerpt = models.CharField(max_length=500, blank=True)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["delivery", "number"]

    def __str__(self) -> str:
        return f"attempt {self.number} of delivery {self.delivery_id}"
