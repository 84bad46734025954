"""The moderation signal: a second, optional risk check on each participant message, by the
model of the study's ``moderation_endpoint`` (through the LLM gateway, ``LLMGateway.moderate``).

The chat never waits for it: ``safety.check_message`` queues ``safety.moderate_message`` after
the message is stored, and a worker runs ``run_moderation``. The verdict is stored as a
``TurnSignal`` of kind ``moderation`` beside the word match (flagged or not, categories, model,
latency; or the error when the call failed), so QA sees both. A flagged verdict is a risk
signal like a word match (``TurnSignal.objects.risk()``): it raises the conversation's QA risk
flag and the alert to the study's contacts (``qa.risk_alert``), and the participant gets the
support notice the next time the app reads the session.

Idempotent: a turn with a verdict is left alone, so a redelivered or re-swept task costs at
most one more model call and never changes a verdict; an error signal is replaced by a later
verdict (a sweep or a retry that succeeded).
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from annotations import dispatch
from annotations.models import ModelEndpoint, SignalKind, SignalSource, Turn, TurnSignal
from annotations.services.audit import record_audit
from annotations.services.safety import ask_for_risk_alert
from attune_collect.llm import GatewayError, ModerationVerdict, VerdictUnreadable, default_gateway

ACTOR = "system:safety.moderation"
# The sweep asks again for messages that have no verdict this long after they were sent (the
# task's own retries are over by then), up to a day back (older ones are for QA to read).
SWEEP_AFTER = timedelta(minutes=5)
SWEEP_WINDOW = timedelta(days=1)
SWEEP_BATCH = 200


def run_moderation(turn_id: int, *, last_attempt: bool = True) -> str:
    """Ask for and store the verdict on a turn's message. Returns what happened: ``flagged``,
    ``clear``, ``error`` (stored as an error signal), ``skipped`` (already judged, or nothing
    to judge) or ``off`` (the study no longer moderates). Raises GatewayError when a retry
    may succeed and this is not the ``last_attempt``."""
    turn = (
        Turn.objects.select_related("conversation__study__moderation_endpoint")
        .filter(pk=turn_id)
        .first()
    )
    if turn is None or not turn.user_message.strip():  # gone, or erased on withdrawal
        return "skipped"
    endpoint = turn.conversation.study.moderation_endpoint
    if endpoint is None:
        return "off"
    if _judged(turn_id):
        return "skipped"
    try:
        verdict = asyncio.run(
            default_gateway().moderate(endpoint.gateway_config(), turn.user_message)
        )
    except GatewayError as error:
        if error.retryable and not last_attempt:
            raise
        return record_moderation_failure(turn_id, endpoint, error.message, error.attempts)
    except VerdictUnreadable as error:
        return record_moderation_failure(turn_id, endpoint, str(error), 1)
    return record_verdict(turn_id, endpoint, verdict)


def _judged(turn_id: int) -> bool:
    """A verdict is stored (an error signal is no verdict: it may be tried again)."""
    return TurnSignal.objects.filter(
        turn_id=turn_id, kind=SignalKind.MODERATION, evidence__error__isnull=True
    ).exists()


@transaction.atomic
def record_verdict(turn_id: int, endpoint: ModelEndpoint, verdict: ModerationVerdict) -> str:
    evidence = {
        "flagged": verdict.flagged,
        "categories": list(verdict.categories),
        "endpoint": endpoint.alias,
        "model": verdict.model,
        "latency_ms": round(verdict.latency_ms),
        "attempts": verdict.attempts,
        "cost_usd": round(verdict.cost_usd, 6),
    }
    if not _store(turn_id, evidence):
        return "skipped"
    outcome = "flagged" if verdict.flagged else "clear"
    record_audit(  # the entry needs only the turn's type and key: no query for the row
        "annotations.safety.moderation",
        target=Turn(pk=turn_id),
        actor_label=ACTOR,
        data={"outcome": outcome, "categories": evidence["categories"], "model": verdict.model},
    )
    if verdict.flagged:
        ask_for_risk_alert(turn_id)  # the QA flag and the email, as for a word match
    return outcome


@transaction.atomic
def record_moderation_failure(
    turn_id: int, endpoint: ModelEndpoint, message: str, attempts: int
) -> str:
    """The call failed for good: an error signal says so to QA; the chat never noticed."""
    evidence = {
        "flagged": None,
        "error": message[:500],
        "endpoint": endpoint.alias,
        "attempts": attempts,
    }
    if not _store(turn_id, evidence):
        return "skipped"
    record_audit(
        "annotations.safety.moderation_failed",
        target=Turn(pk=turn_id),
        actor_label=ACTOR,
        data={"endpoint": endpoint.alias, "attempts": attempts},
    )
    return "error"


def _store(turn_id: int, evidence: dict[str, Any]) -> bool:
    """Write the turn's moderation signal; False when a verdict is there already (it stands)."""
    signal, created = TurnSignal.objects.select_for_update().get_or_create(
        turn_id=turn_id,
        kind=SignalKind.MODERATION,
        source=SignalSource.USER_MESSAGE,
        defaults={"evidence": evidence},
    )
    if created:
        return True
    if "error" not in signal.evidence:
        return False
    signal.evidence = evidence
    signal.save(update_fields=["evidence"])
    return True


LOST = "the request was lost; it has been sent again"


def sweep_unmoderated(now: datetime | None = None) -> int:
    """Ask once more for messages of moderated studies that have no moderation signal some
    minutes after they were sent (the task was lost: a broker error after commit, a worker
    killed mid-call). Returns how many were sent.

    Each is claimed by writing an error signal first (one row per turn: the sweeps of several
    workers send it once); the task's verdict replaces it, and if that is lost too, QA reads
    that the verdict never came."""
    now = now or timezone.now()
    owed = (
        Turn.objects.filter(
            conversation__study__moderation_endpoint__isnull=False,
            started_at__lte=now - SWEEP_AFTER,
            started_at__gte=now - SWEEP_WINDOW,
        )
        .exclude(signals__kind=SignalKind.MODERATION)
        .values_list("pk", "conversation__study__moderation_endpoint__alias")
    )
    sent = 0
    for turn_id, alias in owed[:SWEEP_BATCH]:
        with transaction.atomic():
            _, created = TurnSignal.objects.get_or_create(
                turn_id=turn_id,
                kind=SignalKind.MODERATION,
                source=SignalSource.USER_MESSAGE,
                defaults={"evidence": {"flagged": None, "error": LOST, "endpoint": alias}},
            )
            if created:
                dispatch.moderate_message(turn_id)
                sent += 1
    return sent
