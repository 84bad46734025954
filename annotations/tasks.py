"""Celery tasks of the annotations app. Tasks take ids, are idempotent and acknowledge late.

A task module is a leaf: it imports its services, and nothing imports it (the services send
tasks by name, ``annotations/dispatch.py``; workers find it by autodiscovery).
"""

from __future__ import annotations

from celery import shared_task

from annotations.dispatch import IMPROVE_REPLY, MODERATE_MESSAGE, READ_MESSAGE_RISK
from annotations.services.improver import record_improver_failure, retry_later, run_improver
from annotations.services.moderation import run_moderation
from annotations.services.safety import read_message_risk as read_risk
from attune_collect.llm import GatewayError

IMPROVER_MAX_RETRIES = 3
MODERATION_MAX_RETRIES = 3


@shared_task(bind=True, name=IMPROVE_REPLY, acks_late=True, max_retries=IMPROVER_MAX_RETRIES)
def improve_reply(self, turn_id: int) -> str:
    """Write the "improved" alternate reply of a turn (see services/improver.py).

    The gateway already retried within the call; a still-retryable failure (a provider outage)
    is retried here later with backoff, and after the last attempt the comparison is skipped
    so no participant waits for it.
    """
    try:
        return run_improver(turn_id)
    except GatewayError as error:
        if self.request.retries >= IMPROVER_MAX_RETRIES:
            record_improver_failure(turn_id, error.message)
            return "failed"
        delay_s = 5 * 2**self.request.retries
        retry_later(turn_id, delay_s)
        raise self.retry(countdown=delay_s) from None


@shared_task(bind=True, name=MODERATE_MESSAGE, acks_late=True, max_retries=MODERATION_MAX_RETRIES)
def moderate_message(self, turn_id: int) -> str:
    """The moderation verdict on a turn's message (see services/moderation.py).

    A still-retryable failure after the gateway's own retries is retried here with backoff;
    the last attempt stores the failure as an error signal for QA instead of raising.
    """
    last = self.request.retries >= MODERATION_MAX_RETRIES
    try:
        return run_moderation(turn_id, last_attempt=last)
    except GatewayError:
        raise self.retry(countdown=5 * 2**self.request.retries) from None


@shared_task(name=READ_MESSAGE_RISK, acks_late=True)
def read_message_risk(turn_id: int) -> str:
    """The learned risk model's read of a turn's message (see services/safety.py). Pure CPU and
    the database: a failure is the sweep's to send again (the turn's read stays owed)."""
    return read_risk(turn_id)
