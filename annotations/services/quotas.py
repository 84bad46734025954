"""Quotas per stratum (``annotations/models/quota.py``): who a profile's traits let in, and
each stratum's places held, freed and remaining.

Counted from held places only (``places.held_places``: consented, not withdrawn,
screened out or freed), one per person, among participants whose profile is submitted (a
stratum is known only from the profile): a freed place frees its stratum's place too.
The caller (``participants.submit_profile``) holds the study's row lock, so two profiles
racing for a stratum's last place are checked one after the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotations.models import Participant, Study
from annotations.models.quota import Quota, parse_quotas
from annotations.services.places import held_places
from webhooks.event_types import EventType
from webhooks.events import emit

QUOTA_FULL = "quota_full"  # the screen-out reason


def quotas_of(study: Study) -> list[Quota]:
    return parse_quotas(study.quotas or [])


def _held_profiles(study: Study, *, but: int | None = None) -> list[list[str]]:
    """The traits of each person holding a place with a submitted profile, but the person
    ``but`` (a fresh session of someone already counted is not a newcomer)."""
    rows = (
        held_places(study)
        .filter(profile_submitted_at__isnull=False)
        .values_list("pk", "restart_of_id", "traits")
    )
    people: dict[int, list[str]] = {}
    for pk, restart_of, traits in rows:
        if (restart_of or pk) != but:
            people.setdefault(restart_of or pk, traits or [])
    return list(people.values())


def refusal(study: Study, traits: list[str], *, person: int | None = None) -> Quota | None:
    """The quota that refuses a newcomer with ``traits`` a place, if any (``person``: the id
    of the newcomer's first record, whose places are not counted against them).

    At most: the stratum already holds its bound. At least: a newcomer outside the stratum
    would leave fewer places than the stratum still needs (the target minus the profiled
    holders, this newcomer included, against the stratum's shortfall)."""
    quotas = quotas_of(study)
    if not quotas:
        return None
    held = _held_profiles(study, but=person)
    for quota in quotas:
        in_stratum = sum(quota.matches(t) for t in held)
        if quota.matches(traits):
            if quota.at_most is not None and in_stratum >= quota.at_most:
                return quota
        elif quota.at_least is not None:
            left_after = study.target_participants - len(held) - 1
            if left_after < quota.at_least - in_stratum:
                return quota
    return None


def emit_reached(study: Study, traits: list[str]) -> None:
    """``quota.reached`` for each quota this newcomer's place brought to its bound, once per
    quota ever (``Study.quotas_reached``; the study row is locked by the caller)."""
    quotas = quotas_of(study)
    held = _held_profiles(study)
    reached = list(study.quotas_reached or [])
    for index, quota in enumerate(quotas):
        if quota.id in reached or not quota.matches(traits):
            continue
        if sum(quota.matches(t) for t in held) >= quota.bound:
            reached.append(quota.id)
            # Payloads carry integer ids only: the quota's position in the study's list.
            emit(EventType.QUOTA_REACHED, study.pk, {"study_id": study.pk, "quota_id": index})
    if reached != study.quotas_reached:
        study.quotas_reached = reached
        study.save(update_fields=["quotas_reached"])


@dataclass(frozen=True)
class StratumCounts:
    quota: Quota
    held: int
    freed: int

    @property
    def remaining(self) -> int:
        """At most: places the stratum may still take; at least: places still kept for it."""
        return max(0, self.quota.bound - self.held)


def stratum_counts(study: Study) -> list[StratumCounts]:
    quotas = quotas_of(study)
    if not quotas:
        return []
    held = _held_profiles(study)
    freed_rows = Participant.objects.filter(
        study=study,
        is_preview=False,
        profile_submitted_at__isnull=False,
        place_freed_at__isnull=False,
    ).values_list("traits", flat=True)
    freed = [traits or [] for traits in freed_rows]
    return [
        StratumCounts(
            quota, sum(quota.matches(t) for t in held), sum(quota.matches(t) for t in freed)
        )
        for quota in quotas
    ]
