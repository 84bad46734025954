"""Celery tasks of the Prolific link: sync (on demand and on Celery beat's schedule) and settle
(send owed decisions, pay owed bonuses). Leaves: the services send them by name."""

from __future__ import annotations

import logging

from celery import shared_task

from annotations.dispatch import PROLIFIC_SETTLE, PROLIFIC_SYNC, PROLIFIC_SYNC_ALL
from annotations.models import ProlificLink
from annotations.prolific.bonuses import pay_bonuses
from annotations.prolific.review import send_decisions
from annotations.prolific.sync import sync_study
from attune_collect.prolific.client import ProlificError

logger = logging.getLogger(__name__)


@shared_task(name=PROLIFIC_SYNC, acks_late=True)
def sync(link_id: int) -> int:
    link = ProlificLink.objects.filter(pk=link_id).first()
    if link is None:
        return 0
    try:
        return sync_study(link).places_freed
    except ProlificError as error:  # already retried by the client; the next beat tries again
        logger.warning("Prolific sync of %s failed: %s", link.prolific_study_id, error)
        return 0


@shared_task(name=PROLIFIC_SYNC_ALL, acks_late=True)
def sync_all() -> int:
    for link_id in ProlificLink.objects.values_list("pk", flat=True):
        sync.delay(link_id)
    return ProlificLink.objects.count()


@shared_task(name=PROLIFIC_SETTLE, acks_late=True)
def settle(link_id: int) -> str:
    link = ProlificLink.objects.filter(pk=link_id).first()
    if link is None:
        return "no link"
    decisions = send_decisions(link)
    paid = pay_bonuses(link)
    return f"decisions {decisions}; bonuses {paid}"
