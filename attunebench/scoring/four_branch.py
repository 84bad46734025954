"""The four-branch ratings (section 4)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attunebench.records import FourBranchScores
from attunebench.scoring.common import _as_float, _clamp
from attunebench.vocabulary import INTENSITY_MAX, INTENSITY_MIN

FOUR_BRANCH_DEFAULT = 4.0  # a missing four-branch prediction counts as the scale midpoint


def four_branch_score(
    truth: FourBranchScores | None, prediction: Mapping[str, Any] | None
) -> float:
    """Section 4 four-branch: 1 - MAE / 6 over the branches the participant rated.

    A missing (or non-numeric) prediction counts as 4; predictions are clamped to 1..7 so the
    score stays in [0, 1]. No branch rated -> 1 (edge rule).
    """
    rated = {
        name: value
        for name, value in (truth.as_dict() if truth else {}).items()
        if value is not None
    }
    if not rated:
        return 1.0
    predicted = {str(name).strip().lower(): value for name, value in (prediction or {}).items()}
    errors = []
    for name, value in rated.items():
        guess = _as_float(predicted.get(name))
        guess = (
            FOUR_BRANCH_DEFAULT if guess is None else _clamp(guess, INTENSITY_MIN, INTENSITY_MAX)
        )
        errors.append(abs(value - guess))
    return 1 - (sum(errors) / len(errors)) / 6
