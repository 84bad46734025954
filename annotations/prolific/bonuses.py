"""Bonuses: computed by the study's rule, shown as a table, then set up and paid on Prolific
exactly once.

The rule (``ProlificLink``): a sum per annotated turn and per completed conversation, capped
per participant; one bonus per participant and study (``BonusLine.participant`` is unique, so
two tabs clicking "pay" make one batch). A batch moves intended -> created (the bulk bonus set
up on Prolific, its id stored) -> paying (stored *before* the pay call) -> paid, each step
claimed by a conditional update. Paying is not idempotent at Prolific, so a batch found
``paying`` (a pay call that answered 500, timed out, lost its connection, or whose worker was
killed) is reconciled first: paid when every line's submission shows its bonus, paid again only
when none does and the pay was sent longer ago than ``settle`` (Prolific pays asynchronously).
A worker killed after setting up a bulk bonus and before storing its id leaves the batch
intended: a second bulk bonus is set up, and the first, never paid, costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from annotations.models import (
    BonusBatch,
    BonusLine,
    BonusState,
    ConversationState,
    DecisionState,
    ProlificLink,
    ReviewDecision,
    Turn,
)
from annotations.prolific.connection import client_for
from annotations.prolific.review import ProlificRefused
from annotations.services.audit import actor_label_for, record_audit
from attune_collect.prolific.client import ProlificClient, ProlificError, UncertainOutcome

CLAIM = timedelta(minutes=5)
SETTLE = timedelta(minutes=10)  # how long Prolific may take to show a paid bonus


@dataclass(frozen=True)
class BonusRow:
    participant_id: int
    pseudonym: str
    prolific_pid: str
    submission_id: str
    annotated_turns: int
    completed_conversations: int
    amount_cents: int
    capped: bool


def bonus_table(link: ProlificLink) -> list[BonusRow]:
    """What the rule owes each approved participant not yet given a bonus (shown before paying)."""
    if not (link.bonus_per_turn_cents or link.bonus_per_conversation_cents):
        return []
    approved = (
        ReviewDecision.objects.filter(
            link=link, action=ReviewDecision.APPROVE, state=DecisionState.DONE
        )
        .exclude(participant__in=BonusLine.objects.values("participant"))
        .select_related("participant")
        .order_by("pk")
    )
    rows = []
    for decision in approved:
        participant = decision.participant
        completed = participant.conversations.filter(state=ConversationState.COMPLETED)
        turns = Turn.objects.filter(
            conversation__in=completed, annotation__submitted_at__isnull=False
        ).count()
        amount = turns * link.bonus_per_turn_cents + (
            completed.count() * link.bonus_per_conversation_cents
        )
        capped = bool(link.bonus_cap_cents) and amount > link.bonus_cap_cents
        if capped:
            amount = link.bonus_cap_cents
        if amount:
            rows.append(
                BonusRow(
                    participant.pk,
                    participant.pseudonym,
                    participant.prolific_pid,
                    decision.submission_id,
                    turns,
                    completed.count(),
                    amount,
                    capped,
                )
            )
    return rows


def intend_bonuses(link: ProlificLink, *, actor: User, expected_total_cents: int) -> BonusBatch:
    """Record one batch of the table's bonuses (nothing is sent yet). ``expected_total_cents``
    is the total the researcher saw: a table that changed since is refused, not paid."""
    rows = bonus_table(link)
    total = sum(row.amount_cents for row in rows)
    if not rows:
        raise ProlificRefused("No bonus is owed.")
    if total != expected_total_cents:
        raise ProlificRefused("The bonuses changed since the table was shown; look again.")
    try:
        with transaction.atomic():
            batch = BonusBatch.objects.create(link=link, total_cents=total, decided_by=actor)
            BonusLine.objects.bulk_create(
                BonusLine(
                    batch=batch,
                    participant_id=row.participant_id,
                    prolific_pid=row.prolific_pid,
                    submission_id=row.submission_id,
                    amount_cents=row.amount_cents,
                    annotated_turns=row.annotated_turns,
                    completed_conversations=row.completed_conversations,
                )
                for row in rows
            )
            record_audit(
                "prolific.bonus.intended",
                target=batch,
                actor=actor,
                data={
                    "total_cents": total,
                    "participants": len(rows),
                    "lines": {row.pseudonym: row.amount_cents for row in rows},
                },
            )
    except IntegrityError:
        raise ProlificRefused("These bonuses were already recorded (another tab?).") from None
    return batch


@dataclass
class PayResult:
    paid: int = 0
    reconciled: int = 0
    waiting: int = 0
    failed: int = 0


def _claim(batch_id: int, now) -> BonusBatch | None:
    claimed = BonusBatch.objects.filter(
        Q(pk=batch_id),
        Q(state__in=(BonusState.INTENDED, BonusState.CREATED, BonusState.PAYING)),
        Q(claimed_until__isnull=True) | Q(claimed_until__lt=now),
    ).update(claimed_until=now + CLAIM)
    return BonusBatch.objects.get(pk=batch_id) if claimed else None


def pay_bonuses(
    link: ProlificLink, *, client: ProlificClient | None = None, settle: timedelta = SETTLE
) -> PayResult:
    """Move every owed batch of the study on, as far as it safely goes."""
    result = PayResult()
    owed = BonusBatch.objects.filter(
        link=link, state__in=(BonusState.INTENDED, BonusState.CREATED, BonusState.PAYING)
    ).order_by("pk")
    if not owed.exists():
        return result
    client = client or client_for(link)  # a missing token refuses before anything is claimed
    for batch_id in owed.values_list("pk", flat=True):
        batch = _claim(batch_id, timezone.now())
        if batch is None:
            continue  # another worker or tab holds it
        try:
            _advance(link, batch, client, settle, result)
        except ProlificError as error:
            result.failed += 1
            BonusBatch.objects.filter(pk=batch.pk).update(error=str(error)[:500])
        finally:
            BonusBatch.objects.filter(pk=batch.pk).update(claimed_until=None)
    return result


def _advance(
    link: ProlificLink,
    batch: BonusBatch,
    client: ProlificClient,
    settle: timedelta,
    result: PayResult,
) -> None:
    lines = {line.prolific_pid: line.amount_cents for line in batch.lines.all()}
    if batch.state == BonusState.PAYING:
        landed = _landed(client, batch)
        if landed:
            _mark_paid(batch, reconciled=True)
            result.reconciled += 1
            return
        if batch.pay_sent_at and timezone.now() - batch.pay_sent_at < settle:
            result.waiting += 1  # it may still land: Prolific pays asynchronously
            return
        batch.state = BonusState.CREATED  # not paid: pay it (once more)
    if batch.state == BonusState.INTENDED:
        bulk = client.create_bulk_bonus(link.prolific_study_id, lines)
        BonusBatch.objects.filter(pk=batch.pk).update(state=BonusState.CREATED, bulk_id=bulk.id)
        record_audit(
            "prolific.bonus.created",
            target=batch,
            actor_label="system:prolific",
            data={"bulk_id": bulk.id, "amount_cents": bulk.amount_cents},
        )
        batch.state, batch.bulk_id = BonusState.CREATED, bulk.id
    # Stored before the call: a worker killed after it leaves "paying", never "created".
    now = timezone.now()
    BonusBatch.objects.filter(pk=batch.pk).update(state=BonusState.PAYING, pay_sent_at=now)
    batch.state, batch.pay_sent_at = BonusState.PAYING, now
    try:
        client.pay_bulk_bonus(batch.bulk_id)
    except UncertainOutcome:
        if settle or not _landed(client, batch):
            raise
        _mark_paid(batch, reconciled=True)
        result.reconciled += 1
        return
    _mark_paid(batch, reconciled=False)
    result.paid += 1


def _landed(client: ProlificClient, batch: BonusBatch) -> bool:
    """Whether Prolific shows every line's bonus paid on its submission."""
    for line in batch.lines.all():
        if line.amount_cents not in client.submission(line.submission_id).bonus_payments:
            return False
    return True


@transaction.atomic
def _mark_paid(batch: BonusBatch, *, reconciled: bool) -> None:
    BonusBatch.objects.filter(pk=batch.pk).update(
        state=BonusState.PAID, paid_at=timezone.now(), error=""
    )
    record_audit(
        "prolific.bonus.paid",
        target=batch,
        actor=batch.decided_by,
        actor_label=actor_label_for(batch.decided_by),
        data={"bulk_id": batch.bulk_id, "total_cents": batch.total_cents, "reconciled": reconciled},
    )
