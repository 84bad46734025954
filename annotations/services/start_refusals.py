"""Starts the platform refused, counted per study, reason and day (the study monitor shows them).

Counted in the cache, not in rows: a bot flood is exactly when refusals come by the thousand a
minute, and an INSERT (or an UPDATE of one hot counter row) per refusal would put that flood on
the database the refusal is there to protect. A counter per (study, reason, day) is one atomic
INCR in Redis, shared by every web process, kept ``KEEP_DAYS`` days. On the embedded setup's
in-process cache the counts are per process and gone at a restart: enough for a demo.

Only the refusals of a study that exists are counted: a bot inventing study slugs makes no
counters. The throttles refuse before any query, so they find the study in the slugs of all
studies, read at most once a minute (kept in the cache: a study created within that minute is
not counted until the next reading).
"""

from __future__ import annotations

from datetime import date, timedelta
from enum import StrEnum

from django.core.cache import cache
from django.utils import timezone

from annotations.models import Study

KEEP_DAYS = 30
_STUDIES_KEY = "start-refusals:studies"
_STUDIES_TTL_S = 60


class RefusalReason(StrEnum):
    ADDRESS_LIMIT = "address_limit"  # the start limit of one address
    STUDY_BUDGET = "study_budget"  # the study's starts per minute, all addresses together
    MALFORMED_ID = "malformed_id"  # a PROLIFIC_PID (or STUDY_ID, SESSION_ID) of no valid form
    REPEATED_ID = "repeated_id"  # a PROLIFIC_PID that already started, proving nothing
    STUDY_FULL = "study_full"


def _key(study_id: int, reason: str, day: date) -> str:
    return f"start-refusals:{study_id}:{day.isoformat()}:{reason}"


def _study_ids() -> dict[str, int]:
    ids = cache.get(_STUDIES_KEY)
    if ids is None:
        ids = dict(Study.objects.values_list("slug", "pk"))
        cache.set(_STUDIES_KEY, ids, _STUDIES_TTL_S)
    return ids


def count_refused_start(study: Study | str, reason: RefusalReason) -> None:
    """Count one refused start of ``study`` (a study, or the slug a request named)."""
    study_id = _study_ids().get(study) if isinstance(study, str) else study.pk
    if study_id is None:
        return
    key = _key(study_id, reason, timezone.localdate())
    try:
        cache.incr(key)
    except ValueError:  # the day's first: create it (another process may just have)
        if not cache.add(key, 1, KEEP_DAYS * 86_400):
            cache.incr(key)


def refused_starts_by_day(study: Study, days: int = KEEP_DAYS) -> list[tuple[date, dict[str, int]]]:
    """The days with refusals, oldest first, each with its count per reason (all reasons)."""
    today = timezone.localdate()
    wanted = {
        _key(study.pk, reason, day): (day, reason)
        for day in (today - timedelta(days=n) for n in range(days))
        for reason in RefusalReason
    }
    found = cache.get_many(list(wanted))
    per_day: dict[date, dict[str, int]] = {}
    for key, count in found.items():
        day, reason = wanted[key]
        per_day.setdefault(day, dict.fromkeys(RefusalReason, 0))[reason] = int(count)
    return sorted(per_day.items())
