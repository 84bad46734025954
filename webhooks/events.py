"""``emit``: how a service says that something happened in a study.

The service calls ``emit`` inside its transaction; the event is recorded only after that
transaction commits (``transaction.on_commit``), so a rolled-back action sends nothing, and
whatever fails here is logged and never raised: a webhook never blocks or fails the action that
caused it. Recording is a few inserts (the event and one delivery per subscribed endpoint); the
HTTP requests are made by a worker (``delivery.py``).

This module imports no study app (import-linter: "webhooks' core"), so every app may call it.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Mapping
from functools import partial

from django.db import transaction
from django.utils import timezone

from attune_collect.dispatch import resend_bound
from webhooks import dispatch
from webhooks.event_types import EventType
from webhooks.models import WebhookDelivery, WebhookEndpoint, WebhookEvent

logger = logging.getLogger(__name__)

Ids = Mapping[str, int | str | list[int]]


def emit(event_type: EventType, studies: int | Iterable[int], ids: Ids) -> None:
    """Record ``event_type`` for ``studies`` (a study id, or the ids of all the studies it
    concerns) once the current transaction commits. ``ids`` name the objects (``release_id``,
    ``run_id``, ...): ids only, never participant content."""
    study_ids = sorted({studies} if isinstance(studies, int) else set(studies))
    for key, value in ids.items():  # a guard for callers: ids, never text
        values = value if isinstance(value, list) else [value]
        if not key.endswith(("_id", "_ids")) or not all(isinstance(v, int) for v in values):
            raise TypeError(f"webhook payloads carry integer ids only, not {key}={value!r}")
    transaction.on_commit(partial(_record_safely, str(event_type), study_ids, dict(ids)))


def _record_safely(event_type: str, study_ids: list[int], ids: dict) -> None:
    try:
        record(event_type, study_ids, ids)
    except Exception:  # the action is committed: losing its webhook must not break its caller
        logger.exception("could not record webhook event %s for studies %s", event_type, study_ids)


def record(event_type: str, study_ids: list[int], ids: dict) -> WebhookEvent | None:
    """The event and its deliveries, one per active endpoint subscribed to the type and to one
    of the studies; None when no endpoint wants it (nothing is stored)."""
    endpoints = [
        endpoint
        for endpoint in WebhookEndpoint.objects.filter(
            is_active=True, studies__in=study_ids
        ).distinct()
        if event_type in endpoint.events
    ]
    if not endpoints:
        return None
    resend_at = timezone.now() + resend_bound()  # the sweep's bound if a message is lost
    with transaction.atomic():
        event = WebhookEvent.objects.create(
            event_id=f"evt_{uuid.uuid4().hex}",
            event_type=event_type,
            data={**ids, "study_ids": study_ids},
        )
        event.studies.set(study_ids)
        deliveries = WebhookDelivery.objects.bulk_create(
            WebhookDelivery(event=event, endpoint=endpoint, resend_at=resend_at)
            for endpoint in endpoints
        )
        for delivery in deliveries:
            dispatch.deliver_on_commit(delivery.pk)
    return event
