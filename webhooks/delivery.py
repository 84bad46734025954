"""Sending a delivery: claim it, check its owner may still see the event, sign, POST, record.

Exactly one worker sends a delivery at a time: the claim is a conditional update of
``lease_until`` (pending, and no live lease), so a duplicate message, a sweep's resend or a
replay that meets a send in flight does nothing. A 2xx answer delivers it; anything else
(another status, a timeout, a refused connection, a redirect: never followed) is a failed
attempt, tried again after ``ATTUNE_WEBHOOK_BACKOFF_S`` x 2^(attempt-1) seconds until
``ATTUNE_WEBHOOK_MAX_ATTEMPTS`` attempts. Delivery is at least once: a worker killed between
the receiver's answer and its record sends again after the lease; receivers dedupe by
``webhook-id``.
"""

from __future__ import annotations

import logging
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import datetime, timedelta

import orjson
from django.db.models import F, Q
from django.utils import timezone

from annotations.qa.access import has_perm_in_all
from attune_collect.config import attune_config
from attune_collect.dispatch import resend_bound, resend_owed
from webhooks import dispatch, secret_box, signing
from webhooks.event_types import PERMISSIONS
from webhooks.models import DeliveryStatus, WebhookAttempt, WebhookDelivery

logger = logging.getLogger(__name__)

USER_AGENT = "Attune-Webhooks/1"
EXCERPT = 500


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer, not a new target: following it could reach an address the
    endpoint's owner never registered."""

    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(_NoRedirect)


@dataclass(frozen=True)
class Outcome:
    status_code: int | None
    excerpt: str
    error: str

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def body_of(delivery: WebhookDelivery) -> bytes:
    """The JSON body: the event's id, type, time and ids (the same on every attempt)."""
    event = delivery.event
    return orjson.dumps(
        {
            "id": event.event_id,
            "type": event.event_type,
            "timestamp": event.created_at.isoformat(),
            "data": event.data,
        }
    )


def backoff_s(attempts: int) -> float:
    """Seconds before the next attempt after ``attempts`` failed ones: doubling each time."""
    return float(attune_config().webhook_backoff_s * 2 ** (attempts - 1))


def deliver(delivery_id: int) -> WebhookAttempt | None:
    """One attempt at a delivery, if this call claims it; the attempt, or None."""
    now = timezone.now()
    timeout = attune_config().webhook_timeout_s
    lease_end = now + timedelta(seconds=timeout * 2 + 5)
    claimed = (
        WebhookDelivery.objects.filter(pk=delivery_id, status=DeliveryStatus.PENDING)
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
        .update(
            lease_until=lease_end,
            attempts=F("attempts") + 1,
            resend_at=lease_end,  # a worker that dies sending it: the sweep sends it again
        )
    )
    if not claimed:
        return None
    delivery = WebhookDelivery.objects.select_related("event", "endpoint__owner").get(
        pk=delivery_id
    )
    if not _owner_may_see(delivery):
        WebhookDelivery.objects.filter(pk=delivery_id).update(
            status=DeliveryStatus.SKIPPED,
            lease_until=None,
            resend_at=None,
            finished_at=now,
            replaying=False,
        )
        return None
    body = body_of(delivery)
    started = time.monotonic()
    outcome = _post(delivery, body, timeout)
    attempt = WebhookAttempt.objects.create(
        delivery=delivery,
        number=delivery.attempts,
        replay=delivery.replaying,
        started_at=now,
        duration_ms=int((time.monotonic() - started) * 1000),
        status_code=outcome.status_code,
        ok=outcome.ok,
        response_excerpt=outcome.excerpt,
        error=outcome.error,
    )
    _settle(delivery, outcome)
    return attempt


def _owner_may_see(delivery: WebhookDelivery) -> bool:
    """The owner's access now, not when the endpoint was registered: a user removed from a
    study stops receiving its events at once."""
    owner = delivery.endpoint.owner
    perm = PERMISSIONS.get(delivery.event.event_type)
    study_ids = delivery.event.data.get("study_ids", [])
    return perm is not None and has_perm_in_all(owner, perm, study_ids)


def _post(delivery: WebhookDelivery, body: bytes, timeout: float) -> Outcome:
    secret = secret_box.unseal(delivery.endpoint.secret_encrypted)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        **signing.signed_headers(secret, delivery.event.event_id, body),
    }
    request = urllib.request.Request(delivery.endpoint.url, data=body, headers=headers)
    try:
        with _opener.open(request, timeout=timeout) as response:
            return Outcome(response.status, _excerpt(response.read(EXCERPT)), "")
    except urllib.error.HTTPError as error:  # an answer, with a status that is not 2xx
        return Outcome(error.code, _excerpt(error.read(EXCERPT)), "")
    except Exception as error:  # no answer: refused, timed out, bad address (never the secret)
        return Outcome(None, "", f"{type(error).__name__}: {error}"[:300])


def _excerpt(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")[:EXCERPT]


def _settle(delivery: WebhookDelivery, outcome: Outcome) -> None:
    now = timezone.now()
    mine = WebhookDelivery.objects.filter(pk=delivery.pk, status=DeliveryStatus.PENDING)
    if outcome.ok:
        mine.update(
            status=DeliveryStatus.SUCCEEDED,
            lease_until=None,
            resend_at=None,
            finished_at=now,
            last_status_code=outcome.status_code,
            replaying=False,
        )
        return
    if delivery.attempts >= attune_config().webhook_max_attempts:
        mine.update(
            status=DeliveryStatus.FAILED,
            lease_until=None,
            resend_at=None,
            finished_at=now,
            last_status_code=outcome.status_code,
            replaying=False,
        )
        return
    wait = backoff_s(delivery.attempts)
    mine.update(
        lease_until=None,
        replaying=False,
        next_attempt_at=now + timedelta(seconds=wait),
        resend_at=now + timedelta(seconds=wait) + resend_bound(),
        last_status_code=outcome.status_code,
    )
    dispatch.deliver_later(delivery.pk, wait)


def sweep_webhook_deliveries(now: datetime | None = None) -> list[int]:
    """Send again the deliveries whose message was lost (pending past ``resend_at``)."""
    now = now or timezone.now()
    owed = WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING, resend_at__lt=now)
    return resend_owed(
        owed,
        "resend_at",
        dispatch.deliver_on_commit,
        now=now,
        again_after=resend_bound(),
    )
