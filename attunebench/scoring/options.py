"""How to score: the options that take the reference's side or name a variant."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScoringOptions:
    """How to score; the defaults reproduce the reference (section 4) with our section 5 rules.

    - ``compat``: also where section 5 departs from the reference, do as the reference does:
      a turn whose judgements are all ``na``/blank scores 0 for behaviour accuracy (1.0 by
      default), and each VA pair similarity is rounded to 4 decimals (the reference's port).
    - ``asked_only``: a named variant, never the default: behaviour accuracy counts only the
      judgements that were applicable (asked, section 3) at the turn. The reference scores
      every judgement whose ground truth is yes/no, asked or not (section 4), so this variant
      is reported beside the default scores, never instead of them.
    """

    compat: bool = False
    asked_only: bool = False

    def as_dict(self) -> dict[str, bool]:
        return {"compat": self.compat, "asked_only": self.asked_only}
