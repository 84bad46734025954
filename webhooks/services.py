"""Registering, changing and removing endpoints, and replaying a delivery: who may, and audit.

Who: any active staff user with the webhooks permissions (every role has them: researcher,
QA reviewer, viewer), for themselves only. An endpoint's studies and event types must be ones
its owner may see: each chosen event's permission (``event_types.PERMISSIONS``) in every chosen
study, under the same study scope as the admin (``annotations/qa/access.py``). A superuser sees
and manages every endpoint. The secret is generated here and returned once; it is never written
to an audit entry, a log or a page after that.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from annotations.audit_actions import AuditAction
from annotations.models import Study
from annotations.qa.access import has_perm_in_all, study_scope
from annotations.services.audit import record_audit
from attune_collect.dispatch import resend_bound
from attune_collect.errors import ServiceError
from webhooks import dispatch, secret_box, signing
from webhooks.event_types import PERMISSIONS
from webhooks.models import DeliveryStatus, WebhookDelivery, WebhookEndpoint


class WebhookError(ServiceError):
    default_code = "webhook_refused"


def visible_endpoints(user: User) -> QuerySet[WebhookEndpoint]:
    """A user's own endpoints (a superuser's: all of them)."""
    if user.is_superuser:
        return WebhookEndpoint.objects.all()
    if not (user.is_active and user.has_perm("webhooks.view_webhookendpoint")):
        return WebhookEndpoint.objects.none()
    return WebhookEndpoint.objects.filter(owner=user)


def may_manage(user: User, endpoint: WebhookEndpoint, perm: str) -> bool:
    return (
        user.is_active
        and user.has_perm(perm)
        and (user.is_superuser or endpoint.owner_id == user.pk)
    )


def selectable_studies(user: User) -> QuerySet[Study]:
    """The studies the user may pick (in their scope; every study for an unlimited user)."""
    allowed = study_scope(user).study_ids
    studies = Study.objects.order_by("title")
    return studies if allowed is None else studies.filter(pk__in=allowed)


def check_url(url: str) -> str:
    """http or https, with a host and no credentials (they would show in the admin). Whether
    the host is internal is not checked: see docs/webhooks.md for production."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookError("The URL must be an http:// or https:// address.", field="url")
    if parts.username or parts.password:
        raise WebhookError("Put no user name or password in the URL.", field="url")
    return url.strip()


def _check_subscription(user: User, study_ids: Sequence[int], events: Iterable[str]) -> list[str]:
    chosen = sorted(set(events))
    if not study_ids:
        raise WebhookError("Choose at least one study.", field="studies")
    if not chosen:
        raise WebhookError("Choose at least one event.", field="events")
    for event in chosen:
        if event not in PERMISSIONS:
            raise WebhookError(f"Unknown event {event!r}.", field="events")
        if not has_perm_in_all(user, PERMISSIONS[event], study_ids):
            raise WebhookError(
                f"You may not receive {event} events of every chosen study.", field="events"
            )
    return chosen


def check_endpoint(
    owner: User, *, url: str, study_ids: Sequence[int], events: Iterable[str]
) -> tuple[str, list[str]]:
    """The URL and the event types, checked for ``owner`` (raises ``WebhookError``)."""
    return check_url(url), _check_subscription(owner, study_ids, events)


@transaction.atomic
def register_endpoint(
    owner: User,
    *,
    url: str,
    study_ids: Sequence[int],
    events: Iterable[str],
    description: str = "",
    is_active: bool = True,
) -> tuple[WebhookEndpoint, str]:
    """A new endpoint of ``owner`` and its secret (returned here only: show it once)."""
    if not (owner.is_active and owner.has_perm("webhooks.add_webhookendpoint")):
        raise WebhookError("You may not register webhook endpoints.", code="forbidden")
    url, chosen = check_endpoint(owner, url=url, study_ids=study_ids, events=events)
    secret = signing.new_secret()
    endpoint = WebhookEndpoint.objects.create(
        owner=owner,
        url=url,
        description=description,
        events=chosen,
        is_active=is_active,
        secret_encrypted=secret_box.seal(secret),
    )
    endpoint.studies.set(study_ids)
    record_audit(
        AuditAction.WEBHOOKS_ENDPOINT_CREATE,
        target=endpoint,
        actor=owner,
        data={"url": url, "studies": sorted(study_ids), "events": chosen},
    )
    return endpoint, secret


@transaction.atomic
def update_endpoint(
    user: User,
    endpoint: WebhookEndpoint,
    *,
    url: str,
    study_ids: Sequence[int],
    events: Iterable[str],
    description: str,
    is_active: bool,
) -> WebhookEndpoint:
    if not may_manage(user, endpoint, "webhooks.change_webhookendpoint"):
        raise WebhookError("You may not change this endpoint.", code="forbidden")
    # Checked against the owner's access: a superuser editing it grants nothing more.
    endpoint.url, endpoint.events = check_endpoint(
        endpoint.owner, url=url, study_ids=study_ids, events=events
    )
    endpoint.description = description
    endpoint.is_active = is_active
    endpoint.save()
    endpoint.studies.set(study_ids)
    record_audit(
        AuditAction.WEBHOOKS_ENDPOINT_UPDATE,
        target=endpoint,
        actor=user,
        data={
            "url": endpoint.url,
            "studies": sorted(study_ids),
            "events": endpoint.events,
            "active": is_active,
        },
    )
    return endpoint


@transaction.atomic
def delete_endpoint(user: User, endpoint: WebhookEndpoint) -> None:
    if not may_manage(user, endpoint, "webhooks.delete_webhookendpoint"):
        raise WebhookError("You may not remove this endpoint.", code="forbidden")
    record_audit(
        AuditAction.WEBHOOKS_ENDPOINT_DELETE,
        target=endpoint,
        actor=user,
        data={"url": endpoint.url},
    )
    endpoint.delete()


@transaction.atomic
def replay_delivery(user: User, delivery: WebhookDelivery) -> WebhookDelivery:
    """Send a finished delivery once more (same event id and body, a fresh signature); the
    worker checks again that the owner may see it."""
    delivery = (
        WebhookDelivery.objects.select_for_update().select_related("endpoint").get(pk=delivery.pk)
    )
    if not may_manage(user, delivery.endpoint, "webhooks.change_webhookendpoint"):
        raise WebhookError("You may not replay this delivery.", code="forbidden")
    if delivery.status == DeliveryStatus.PENDING:
        raise WebhookError("This delivery is still being sent: wait for it to finish.")
    delivery.status = DeliveryStatus.PENDING
    delivery.replaying = True
    delivery.finished_at = None
    delivery.resend_at = timezone.now() + resend_bound()
    delivery.save(update_fields=["status", "replaying", "finished_at", "resend_at"])
    record_audit(
        AuditAction.WEBHOOKS_DELIVERY_REPLAY,
        target=delivery,
        actor=user,
        data={"event": delivery.event_id, "endpoint": delivery.endpoint_id},
    )
    dispatch.deliver_on_commit(delivery.pk)
    return delivery
