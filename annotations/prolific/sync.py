"""Sync a study with Prolific: every submission's status is read and stored, and a RETURNED,
TIMED-OUT or REJECTED submission frees its participant's place (``places.free_place``).

Running it again with nothing changed on Prolific changes nothing here: rows are written only
when their status or bonuses differ, and a place already freed stays as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from annotations.models import Participant, ProlificLink, ProlificSubmission
from annotations.prolific.connection import client_for
from annotations.prolific.places import free_place
from annotations.services.audit import actor_label_for, record_audit
from attune_collect.prolific.client import FREEING_STATUSES, ProlificClient, Submission

SYNC_ACTION = "prolific.sync"


@dataclass
class SyncResult:
    seen: int = 0
    changed: int = 0  # submissions whose stored status or bonuses changed
    places_freed: int = 0
    by_status: dict[str, int] = field(default_factory=dict)

    @property
    def made_changes(self) -> bool:
        return bool(self.changed or self.places_freed)


def sync_study(
    link: ProlificLink, *, actor: User | None = None, client: ProlificClient | None = None
) -> SyncResult:
    """Read every submission of the link's Prolific study and apply what changed."""
    client = client or client_for(link)
    submissions = list(client.submissions(link.prolific_study_id))
    return apply_submissions(link, submissions, actor=actor)


def _records_by_pid(link: ProlificLink, pids: Iterable[str]) -> dict[str, list[Participant]]:
    records: dict[str, list[Participant]] = {}
    for participant in Participant.objects.filter(
        study_id=link.study_id, prolific_pid__in=set(pids), is_preview=False
    ).order_by("pk"):
        records.setdefault(participant.prolific_pid, []).append(participant)
    return records


def apply_submissions(
    link: ProlificLink, submissions: list[Submission], *, actor: User | None = None
) -> SyncResult:
    result = SyncResult(seen=len(submissions))
    label = actor_label_for(actor, "system:prolific-sync")
    records = _records_by_pid(link, (s.participant_id for s in submissions))
    stored = {
        row.submission_id: row
        for row in ProlificSubmission.objects.filter(submission_id__in=[s.id for s in submissions])
    }
    now = timezone.now()
    for submission in submissions:
        result.by_status[submission.status] = result.by_status.get(submission.status, 0) + 1
        people = records.get(submission.participant_id, [])
        first = next((p for p in people if p.restart_of_id is None), None)
        bonuses = list(submission.bonus_payments)
        row = stored.get(submission.id)
        if row is None:
            ProlificSubmission.objects.create(
                link=link,
                submission_id=submission.id,
                prolific_pid=submission.participant_id,
                participant=first,
                status=submission.status,
                bonus_paid_cents=bonuses,
                synced_at=now,
            )
            result.changed += 1
        elif row.status != submission.status or row.bonus_paid_cents != bonuses:
            row.status, row.bonus_paid_cents, row.synced_at = submission.status, bonuses, now
            row.save(update_fields=["status", "bonus_paid_cents", "synced_at"])
            result.changed += 1
        if submission.status in FREEING_STATUSES:
            for person in people:
                result.places_freed += free_place(person.pk, submission.status, actor_label=label)
    with transaction.atomic():
        ProlificLink.objects.filter(pk=link.pk).update(last_synced_at=now)
        if result.made_changes:
            record_audit(
                SYNC_ACTION,
                target=link,
                actor=actor,
                actor_label=label,
                data={
                    "seen": result.seen,
                    "changed": result.changed,
                    "places_freed": result.places_freed,
                    "by_status": result.by_status,
                },
            )
    return result
