"""Celery tasks of the annotations app. Tasks take ids, are idempotent and acknowledge late."""

from __future__ import annotations

from celery import shared_task

from attune_collect.llm import GatewayError

IMPROVER_MAX_RETRIES = 3


@shared_task(bind=True, name="annotations.improve_reply", acks_late=True,
             max_retries=IMPROVER_MAX_RETRIES)  # fmt: skip
def improve_reply(self, turn_id: int) -> str:
    """Write the "improved" alternate reply of a turn (see services/improver.py).

    The gateway already retried within the call; a still-retryable failure (a provider outage)
    is retried here later with backoff, and after the last attempt the comparison is skipped
    so no participant waits for it.
    """
    from annotations.services.improver import record_improver_failure, run_improver

    try:
        return run_improver(turn_id)
    except GatewayError as error:
        if self.request.retries >= IMPROVER_MAX_RETRIES:
            record_improver_failure(turn_id, error.message)
            return "failed"
        raise self.retry(countdown=5 * 2**self.request.retries) from None
