"""Per-turn pairwise accuracy and judged draft quality (section 4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attunebench.records import PairwiseComparison
from attunebench.run_output import DraftJudgeScores
from attunebench.scoring.common import _as_float, _mean


def _letter(value: Any) -> str | None:
    return value.strip().upper() if isinstance(value, str) else None


def pairwise_accuracy(
    comparisons: Sequence[PairwiseComparison], selections: Mapping[str, Any] | None
) -> float:
    """Section 4 pairwise accuracy of one turn.

    Share of comparisons where the EM's letter (``em_pairwise_selections[str(index)]``)
    equals the participant's winner. No comparisons -> 1.0. A comparison without a winner
    stays in the denominator and never matches (a missing EM answer never matches a missing
    winner). Letters are compared as written: the runner records them in the participant's
    A/B frame (``pairwise_assignment`` is informational).
    """
    if not comparisons:
        return 1.0
    selections = selections or {}
    hits = sum(
        comparison.winner is not None
        and _letter(selections.get(str(index))) == _letter(comparison.winner)
        for index, comparison in enumerate(comparisons)
    )
    return hits / len(comparisons)


def draft_quality(judge_scores: DraftJudgeScores | None) -> float | None:
    """Section 4 judged draft quality: (mean of the judge dimensions - 1) / 6.

    The mean runs over the dimensions present; None when no score is present (no judge).
    """
    if judge_scores is None:
        return None
    mean = _mean(_as_float(value) for value in judge_scores.dimensions())
    return None if mean is None else (mean - 1) / 6
