"""How many places a study has held, freed (by reason) and remaining: the monitor's and the
Prolific page's figures. Held as ``participants.is_full`` counts them (one per person)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import QuerySet
from django.db.models.functions import Coalesce

from annotations.models import Participant, Study

# Why a place went back to the study (Participant.place_freed_reason: a Prolific submission's
# status at sync, or "idle" from the sweep; annotations/prolific/places.py).
FREED_REASONS = ("RETURNED", "TIMED-OUT", "REJECTED", "idle")


@dataclass(frozen=True)
class PlaceCounts:
    target: int
    held: int
    freed: dict[str, int]

    @property
    def remaining(self) -> int:
        return max(0, self.target - self.held)


def held_places(study: Study) -> QuerySet[Participant]:
    """The records holding a place, as ``participants._place_holders`` (one person may have
    several records: count ``Coalesce("restart_of_id", "id")``)."""
    return Participant.objects.filter(
        study=study,
        is_preview=False,
        withdrawn=False,
        consented_at__isnull=False,
        screened_out_at__isnull=True,
        place_freed_at__isnull=True,
    )


def place_counts(study: Study) -> PlaceCounts:
    people = Participant.objects.filter(study=study, is_preview=False)
    held = (
        held_places(study)
        .annotate(person=Coalesce("restart_of_id", "id"))
        .values("person")
        .distinct()
        .count()
    )
    freed = Counter(
        people.filter(place_freed_at__isnull=False).values_list("place_freed_reason", flat=True)
    )
    return PlaceCounts(study.target_participants, held, {r: freed[r] for r in FREED_REASONS})
