"""Study monitoring: the numbers behind each chart, as tables (the CSV download is these).

Definitions (also shown on the page):
- funnel by day: the day a conversation started; "started" counts conversations plus
  participants who arrived and never consented (a conversation is created at consent);
  "chatting" = reached the chat (has a turn); "completed" = has a completion time (so an
  excluded conversation still counts as completed on the day it started);
- time per turn: from the participant's message to the annotation's submission; time per
  annotation: from opening to submitting it (else the sum of the step timings);
- flag rate: the share of the conversations checked by the flag computation that carry a flag
  of that type (whatever its status), per model.
- starts refused: the start links the platform refused, per day and reason (one address over
  its start limit, the study over its starts per minute, a malformed id, a PROLIFIC_PID that
  already started and proved nothing, a full study); counted in the cache for 30 days
  (annotations/services/start_refusals.py).
Preview participants are left out everywhere.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Exists, OuterRef, Q
from django.db.models.functions import Coalesce, TruncDate

from annotations import models as data
from annotations.models import Conversation, ConversationState, Participant, Study
from annotations.qa.flags import flag_label
from annotations.qa.flags.loading import seconds_spent
from annotations.qa.models import Flag
from annotations.services.places import FREED_REASONS, place_counts
from annotations.services.quotas import stratum_counts
from annotations.services.start_refusals import RefusalReason, refused_starts_by_day

NO_MODEL = "(none)"
ALL_MODELS = "all models"
FUNNEL_STAGES = ("started", "consented", "chatting", "completed", "abandoned", "excluded")


@dataclass(frozen=True)
class Table:
    name: str
    title: str
    columns: tuple[str, ...]
    rows: list[tuple]


def _conversations(study: Study):
    return Conversation.objects.filter(study=study, participant__is_preview=False)


def funnel_by_day(study: Study) -> Table:
    day = TruncDate(Coalesce("started_at", "created_at"))
    has_turn = Exists(data.Turn.objects.filter(conversation=OuterRef("pk")))
    per_day = (
        _conversations(study)
        .annotate(day=day, has_turn=has_turn)
        .order_by()
        .values("day")
        .annotate(
            consented=Count("id"),
            chatting=Count("id", filter=Q(has_turn=True)),
            completed=Count("id", filter=Q(completed_at__isnull=False)),
            abandoned=Count("id", filter=Q(state=ConversationState.ABANDONED)),
            excluded=Count("id", filter=Q(state=ConversationState.EXCLUDED)),
        )
    )
    arrived = dict(
        Participant.objects.filter(study=study, is_preview=False, conversations__isnull=True)
        .annotate(day=TruncDate("created_at"))
        .order_by()
        .values_list("day")
        .annotate(n=Count("id"))
    )
    rows: dict[date, dict[str, int]] = defaultdict(lambda: dict.fromkeys(FUNNEL_STAGES, 0))
    for entry in per_day:
        row = rows[entry["day"]]
        for stage in FUNNEL_STAGES[1:]:
            row[stage] = entry[stage]
    for day_value, n in arrived.items():
        rows[day_value]["started"] += n
    for row in rows.values():
        row["started"] += row["consented"]
    return Table(
        "funnel",
        "Recruitment funnel by day",
        ("day", *FUNNEL_STAGES),
        [(d.isoformat(), *(rows[d][s] for s in FUNNEL_STAGES)) for d in sorted(rows)],
    )


def conversations_per_model(study: Study) -> Table:
    rows = (
        _conversations(study)
        .order_by()
        .values_list("model_endpoint__alias")
        .annotate(
            total=Count("id"),
            completed=Count("id", filter=Q(state=ConversationState.COMPLETED)),
            abandoned=Count("id", filter=Q(state=ConversationState.ABANDONED)),
            excluded=Count("id", filter=Q(state=ConversationState.EXCLUDED)),
        )
        .order_by("model_endpoint__alias")
    )
    total = sum(r[1] for r in rows) or 1
    return Table(
        "models",
        "Conversations per model (assignment balance)",
        ("model", "conversations", "share", "completed", "abandoned", "excluded"),
        [(alias or NO_MODEL, n, round(n / total, 4), c, a, e) for alias, n, c, a, e in rows],
    )


def turns_per_conversation(study: Study) -> Table:
    counts = Counter(
        _conversations(study).annotate(n=Count("turns")).order_by().values_list("n", flat=True)
    )
    return Table(
        "turns",
        "Turns per conversation",
        ("turns", "conversations"),
        [(n, counts[n]) for n in sorted(counts)],
    )


def _median(values: Sequence[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def median_times(study: Study) -> Table:
    rows = data.TurnAnnotation.objects.filter(
        turn__conversation__study=study, turn__conversation__participant__is_preview=False
    ).values_list(
        "turn__conversation__model_endpoint__alias",
        "turn__started_at",
        "started_at",
        "submitted_at",
        "timings",
    )
    per_turn: dict[str, list[float]] = defaultdict(list)
    per_annotation: dict[str, list[float]] = defaultdict(list)
    for alias, turn_started, started, submitted, timings in rows.iterator(chunk_size=5000):
        seconds = seconds_spent(started, submitted, timings)
        for key in (alias or NO_MODEL, ALL_MODELS):
            if turn_started and submitted:
                per_turn[key].append((submitted - turn_started).total_seconds())
            if seconds is not None:
                per_annotation[key].append(seconds)
    keys = sorted(set(per_turn) | set(per_annotation), key=lambda k: (k == ALL_MODELS, k))
    return Table(
        "timings",
        "Median seconds per turn and per annotation",
        (
            "model",
            "turns_timed",
            "median_turn_seconds",
            "annotations_timed",
            "median_annotation_seconds",
        ),
        [
            (
                k,
                len(per_turn[k]),
                _median(per_turn[k]),
                len(per_annotation[k]),
                _median(per_annotation[k]),
            )
            for k in keys
        ],
    )


def flag_rates(study: Study) -> Table:
    checked = dict(
        _conversations(study)
        .filter(qa_review__flags_computed_at__isnull=False)
        .order_by()
        .values_list("model_endpoint__alias")
        .annotate(n=Count("id"))
    )
    flagged = (
        Flag.objects.filter(conversation__study=study, conversation__participant__is_preview=False)
        .order_by()
        .values_list("flag_type", "conversation__model_endpoint__alias")
        .annotate(n=Count("conversation", distinct=True))
    )
    rows = []
    for flag_type, alias, n in sorted(flagged, key=lambda r: (r[0], r[1] or "")):
        base = checked.get(alias, 0)
        rows.append(
            (
                flag_type,
                flag_label(flag_type),
                alias or NO_MODEL,
                base,
                n,
                round(n / base, 4) if base else None,
            )
        )
    return Table(
        "flags",
        "Flag rates by type and model",
        ("flag_type", "label", "model", "conversations_checked", "conversations_flagged", "rate"),
        rows,
    )


def withdrawals(study: Study) -> Table:
    per_day = (
        Participant.objects.filter(study=study, is_preview=False, withdrawn=True)
        .annotate(day=TruncDate(Coalesce("withdrawn_at", "created_at")))
        .order_by("day")
        .values_list("day")
        .annotate(n=Count("id"))
    )
    return Table(
        "withdrawals",
        "Withdrawals by day",
        ("day", "withdrawn"),
        [(d.isoformat(), n) for d, n in per_day],
    )


def refused_starts(study: Study) -> Table:
    reasons = tuple(RefusalReason)
    return Table(
        "refused_starts",
        "Starts refused by day",
        ("day", *reasons, "total"),
        [
            (day.isoformat(), *(counts[r] for r in reasons), sum(counts.values()))
            for day, counts in refused_starts_by_day(study)
        ],
    )


def places(study: Study) -> Table:
    """Places held, freed by reason, and remaining (``services/places.py``)."""
    counts = place_counts(study)
    return Table(
        "places",
        "Places held, freed and remaining",
        ("target", "held", *(f"freed: {r}" for r in FREED_REASONS), "remaining"),
        [(counts.target, counts.held, *counts.freed.values(), counts.remaining)],
    )


def quota_places(study: Study) -> Table:
    """Per stratum of the study's quotas: places held, freed and remaining
    (``services/quotas.py``; no rows when the study has no quotas)."""
    return Table(
        "quotas",
        "Places per stratum (quotas)",
        ("quota", "rule", "held", "freed", "remaining"),
        [(s.quota.id, s.quota.rule, s.held, s.freed, s.remaining) for s in stratum_counts(study)],
    )


TABLES = {
    "funnel": funnel_by_day,
    "places": places,
    "quotas": quota_places,
    "models": conversations_per_model,
    "turns": turns_per_conversation,
    "timings": median_times,
    "flags": flag_rates,
    "withdrawals": withdrawals,
    "refused_starts": refused_starts,
}


def monitoring_tables(study: Study) -> dict[str, Table]:
    return {name: build(study) for name, build in TABLES.items()}
