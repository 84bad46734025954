"""Flags: computing the automatic ones, raising one by hand, confirming and dismissing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from annotations import dispatch
from annotations.audit_actions import AuditAction
from annotations.models import Conversation
from annotations.qa.flags import MANUAL, FlagType, flag_types
from annotations.qa.flags.base import Detection
from annotations.qa.flags.loading import load_snapshots
from annotations.qa.models import (
    ConversationReview,
    Flag,
    FlagSource,
    FlagStatus,
    ReviewStatus,
    Severity,
)
from annotations.qa.services import QAError
from annotations.qa.services.intake import open_reviews
from annotations.services.audit import record_audit
from attune_collect.dispatch import resend_bound, resend_owed
from webhooks.event_types import EventType
from webhooks.events import emit

RISK_FLAG = "risk_signal"  # the risk check's flag (qa/flags/risk_signal.py): a webhook event
RETIRED_NOTE = "No longer raised by the check (the data changed)."
CHUNK_SIZE = 200


@dataclass
class FlagReport:
    conversations: int = 0
    raised: int = 0
    updated: int = 0
    retired: int = 0


def compute_flags(
    conversation_ids: Iterable[int],
    *,
    actor_label: str,
    chunk_size: int = CHUNK_SIZE,
    only: Iterable[str] | None = None,
) -> FlagReport:
    """Run every registered check (or the ``only`` ones) on these conversations; safe to run
    again at any time.

    A check that fires creates its flag (or refreshes an open one's evidence); a check that no
    longer fires retires its open flag. Flags a reviewer resolved are left as they are.
    ``only`` serves the risk alert, which raises the risk flag while the chat still runs
    (the other checks wait for the finished conversation).
    """
    ids = sorted(set(conversation_ids))
    keys = set(only) if only is not None else None
    checks = [t for t in flag_types() if keys is None or t.key in keys]
    report = FlagReport()
    for start in range(0, len(ids), chunk_size):
        with transaction.atomic():
            _compute_chunk(ids[start : start + chunk_size], checks, actor_label, report)
    return report


def _compute_chunk(
    ids: list[int], checks: list[FlagType], actor_label: str, report: FlagReport
) -> None:
    loaded = load_snapshots(ids)
    open_reviews([item.conversation for item in loaded])
    existing = {
        (f.conversation_id, f.flag_type): f
        for f in Flag.objects.filter(conversation_id__in=ids, source=FlagSource.AUTOMATIC)
    }
    for item in loaded:
        report.conversations += 1
        for flag_type in checks:
            detection = flag_type.detect(item.snapshot, item.thresholds)
            flag = existing.get((item.conversation.pk, flag_type.key))
            if detection is not None and flag is None:
                _create(item.conversation, flag_type.key, detection, actor_label)
                report.raised += 1
            elif detection is not None and flag is not None:
                report.updated += _refresh(flag, detection, actor_label)
            elif flag is not None and flag.status == FlagStatus.OPEN:
                _set_status(
                    flag,
                    FlagStatus.DISMISSED,
                    None,
                    RETIRED_NOTE,
                    action=AuditAction.QA_FLAG_RETIRE,
                    actor_label=actor_label,
                )
                report.retired += 1
    if len(checks) == len(flag_types()):  # a partial run (the risk alert) is not "computed"
        ConversationReview.objects.filter(conversation_id__in=ids).update(
            flags_computed_at=timezone.now()
        )
        Conversation.objects.filter(pk__in=ids).exclude(flags_resend_at=None).update(
            flags_resend_at=None  # no longer owed: the sweep leaves them alone
        )


def sweep_owed_flags(now: datetime | None = None) -> list[int]:
    """Ask again for the flags of completed conversations still not computed by their time
    (the message lost to a broker error or a killed worker); the conversations sent."""
    now = now or timezone.now()
    owed = Conversation.objects.filter(flags_resend_at__lt=now)
    return resend_owed(
        owed, "flags_resend_at", dispatch.compute_flags, now=now, again_after=resend_bound()
    )


def _create(
    conversation: Conversation, flag_type: str, detection: Detection, actor_label: str
) -> Flag:
    flag = Flag.objects.create(
        conversation=conversation,
        flag_type=flag_type,
        severity=detection.severity,
        source=FlagSource.AUTOMATIC,
        summary=detection.summary[:300],
        evidence=detection.evidence,
        turn_numbers=list(detection.turn_numbers),
    )
    if flag_type == RISK_FLAG:  # created once per conversation (the flags' unique constraint)
        emit(
            EventType.RISK_FLAG_RAISED,
            conversation.study_id,
            {"flag_id": flag.pk, "conversation_id": conversation.pk},
        )
    record_audit(
        AuditAction.QA_FLAG_RAISE,
        target=flag,
        actor_label=actor_label,
        data={
            "conversation": conversation.pk,
            "type": flag_type,
            "severity": detection.severity,
            "summary": flag.summary,
        },
    )
    return flag


def _refresh(flag: Flag, detection: Detection, actor_label: str) -> int:
    """Bring an automatic flag up to date; returns 1 if it changed."""
    if (
        flag.status == FlagStatus.DISMISSED
        and flag.resolved_by_id is None
        and flag.resolution_note == RETIRED_NOTE
    ):
        _set_status(
            flag,
            FlagStatus.OPEN,
            None,
            "",
            action=AuditAction.QA_FLAG_REOPEN,
            actor_label=actor_label,
        )
    elif flag.status != FlagStatus.OPEN:
        return 0  # a reviewer's verdict stands; the evidence they judged stays as it was
    new = {
        "severity": detection.severity,
        "summary": detection.summary[:300],
        "evidence": detection.evidence,
        "turn_numbers": list(detection.turn_numbers),
    }
    changed = {k: v for k, v in new.items() if getattr(flag, k) != v}
    if not changed:
        return 0
    for key, value in changed.items():
        setattr(flag, key, value)
    flag.save(update_fields=list(changed))
    record_audit(
        AuditAction.QA_FLAG_UPDATE,
        target=flag,
        actor_label=actor_label,
        data={
            "conversation": flag.conversation_id,
            "changed": sorted(changed),
            "severity": flag.severity,
            "summary": flag.summary,
        },
    )
    return 1


@transaction.atomic
def raise_flag(
    conversation: Conversation,
    *,
    actor: User,
    summary: str,
    severity: str = Severity.WARNING,
    flag_type: str = MANUAL,
    source: str = FlagSource.REVIEWER,
    evidence: dict[str, Any] | None = None,
    turn_numbers: Iterable[int] = (),
) -> Flag:
    """A flag raised by a reviewer (or by the chat backend, with ``source=chat``)."""
    if flag_type != MANUAL and flag_type not in {t.key for t in flag_types()}:
        raise QAError(f"Unknown flag type {flag_type!r}.")
    if severity not in Severity.values:
        raise QAError(f"Unknown severity {severity!r}.")
    if source == FlagSource.AUTOMATIC:
        raise QAError("Automatic flags come from compute_flags only.")
    if not summary.strip():
        raise QAError("Say what the problem is.")
    flag = Flag.objects.create(
        conversation=conversation,
        flag_type=flag_type,
        severity=severity,
        source=source,
        summary=summary.strip()[:300],
        evidence=evidence or {},
        turn_numbers=sorted(set(turn_numbers)),
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    record_audit(
        AuditAction.QA_FLAG_RAISE,
        target=flag,
        actor=actor,
        data={
            "conversation": conversation.pk,
            "type": flag_type,
            "severity": severity,
            "summary": flag.summary,
            "source": source,
        },
    )
    return flag


@transaction.atomic
def resolve_flag(flag: Flag, *, status: str, actor: User, note: str = "") -> Flag:
    """Confirm, dismiss or reopen a flag outside a review."""
    flag = Flag.objects.select_for_update().get(pk=flag.pk)
    if status not in FlagStatus.values:
        raise QAError(f"Unknown flag status {status!r}.")
    if status == flag.status:
        raise QAError(f"The flag is already {flag.get_status_display().lower()}.")
    review = ConversationReview.objects.filter(conversation_id=flag.conversation_id).first()
    if (
        review is not None
        and review.double_review
        and review.status in (ReviewStatus.PENDING, ReviewStatus.AWAITING_SECOND)
    ):
        # A flag's status is visible to the other reviewer: in a blind review it is a verdict.
        raise QAError(
            "This conversation is in a blind double review: give your verdict on the flag with your review."
        )
    return set_flag_status(flag, status, actor, note)


def set_flag_status(flag: Flag, status: str, actor: User | None, note: str) -> Flag:
    """Change a flag's status and audit it; callers hold the transaction."""
    return _set_status(flag, status, actor, note, action=f"qa.flag.{_VERBS[status]}")


_VERBS: dict[str, str] = {
    FlagStatus.OPEN: "reopen",
    FlagStatus.CONFIRMED: "confirm",
    FlagStatus.DISMISSED: "dismiss",
}


def _set_status(
    flag: Flag,
    status: str,
    actor: User | None,
    note: str,
    *,
    action: str,
    actor_label: str | None = None,
) -> Flag:
    previous = flag.status
    flag.status = status
    is_open = status == FlagStatus.OPEN
    flag.resolved_at = None if is_open else timezone.now()
    flag.resolved_by = None if is_open or actor is None or not actor.is_authenticated else actor
    flag.resolution_note = note.strip()
    flag.save(update_fields=["status", "resolved_at", "resolved_by", "resolution_note"])
    record_audit(
        action,
        target=flag,
        actor=actor,
        actor_label=actor_label,
        data={
            "conversation": flag.conversation_id,
            "type": flag.flag_type,
            "from": previous,
            "to": status,
            "note": flag.resolution_note,
        },
    )
    return flag
