"""The shape of a study's quotas (``Study.quotas``): a list of strata from the profile
questionnaire's traits, each with a bound. Pure data, no database: the model validates it on
every save through the setup path (``services/setup.py``), ``services/quotas.py`` counts and
enforces it.

One quota is ``{"id": "diagnosed", "trait": "diagnosis:", "at_most": 20}`` or
``{"id": "undiagnosed", "trait": "diagnosis:", "without": true, "at_least": 30}``:
- ``trait``: a participant's trait (``diagnosis:adhd``), or a prefix ending in ":" that matches
  any trait of that kind (``diagnosis:`` = any diagnosis);
- ``without``: the stratum is the participants WITHOUT that trait;
- exactly one of ``at_most`` (the N+1th of the stratum is screened out) and ``at_least``
  (once the other strata would eat into them, the remaining places are kept for this one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError

MAX_QUOTAS = 20
_ID = re.compile(r"^[a-z0-9_-]{1,40}$")
_KEYS = {"id", "trait", "without", "at_most", "at_least"}


@dataclass(frozen=True)
class Quota:
    id: str
    trait: str
    without: bool
    at_most: int | None
    at_least: int | None

    @property
    def bound(self) -> int:
        return self.at_most if self.at_most is not None else self.at_least or 0

    @property
    def rule(self) -> str:
        who = f"{'without' if self.without else 'with'} {self.trait}"
        if self.at_most is not None:
            return f"at most {self.at_most} {who}"
        return f"at least {self.at_least} {who}"

    def matches(self, traits: list[str]) -> bool:
        if self.trait.endswith(":"):
            has = any(t.startswith(self.trait) for t in traits)
        else:
            has = self.trait in traits
        return has != self.without


def parse_quotas(value: Any) -> list[Quota]:
    """The quotas of ``value``; ValidationError naming the first problem."""
    if not isinstance(value, list) or len(value) > MAX_QUOTAS:
        raise ValidationError(f"Quotas are a list of at most {MAX_QUOTAS} objects.")
    quotas: list[Quota] = []
    for i, item in enumerate(value):
        where = f"Quota {i + 1}"
        if not isinstance(item, dict) or set(item) - _KEYS:
            raise ValidationError(f"{where}: an object with keys among {sorted(_KEYS)}.")
        ident, trait = item.get("id"), item.get("trait")
        if not isinstance(ident, str) or not _ID.match(ident):
            raise ValidationError(f"{where}: 'id' is 1 to 40 lowercase letters, digits, - or _.")
        if ident in {q.id for q in quotas}:
            raise ValidationError(f"{where}: the id {ident!r} is used twice.")
        if not isinstance(trait, str) or not 1 <= len(trait.strip()) <= 200:
            raise ValidationError(f"{where}: 'trait' is a trait such as 'diagnosis:adhd'.")
        without = item.get("without", False)
        if not isinstance(without, bool):
            raise ValidationError(f"{where}: 'without' is true or false.")
        bounds = [item.get(k) for k in ("at_most", "at_least")]
        if sum(b is not None for b in bounds) != 1 or not all(
            b is None or (isinstance(b, int) and not isinstance(b, bool) and b >= 0) for b in bounds
        ):
            raise ValidationError(
                f"{where}: exactly one of 'at_most' or 'at_least', a number >= 0."
            )
        quotas.append(Quota(ident, trait.strip(), without, bounds[0], bounds[1]))
    return quotas


def validate_quotas(value: Any) -> None:
    parse_quotas(value)
