"""The webhooks' task (a leaf: nothing imports it; the Celery app finds it by autodiscovery)."""

from __future__ import annotations

from celery import shared_task

from webhooks.delivery import deliver
from webhooks.dispatch import DELIVER


@shared_task(name=DELIVER, ignore_result=True)
def deliver_webhook(delivery_id: int) -> None:
    deliver(delivery_id)
