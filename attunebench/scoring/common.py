"""Small numeric helpers shared by the metrics, and the optimal one-to-one pairing."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment


def _mean(values: Iterable[float | None]) -> float | None:
    """Mean of the defined values; None when there are none."""
    defined = [value for value in values if value is not None]
    return sum(defined) / len(defined) if defined else None


def _clamp(value: float, low: float, high: float) -> float:
    return min(high, max(low, value))


def _as_float(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _optimal_pairs(
    truths: Sequence[str],
    predictions: Sequence[str],
    score: Callable[[str, str], float],
    decimals: int | None = None,
) -> np.ndarray:
    """The scores of the one-to-one pairing of truths and predictions with the largest total.

    Section 5: an optimal assignment (``scipy.optimize.linear_sum_assignment``), never a greedy
    one; the shorter side is matched in full, the rest of the longer side stays unpaired.
    ``decimals`` rounds each pair's score first (the reference port's VA rounding).
    """
    matrix = np.array([[score(t, p) for p in predictions] for t in truths])
    if decimals is not None:
        matrix = np.round(matrix, decimals)
    rows, cols = linear_sum_assignment(matrix, maximize=True)
    return matrix[rows, cols]
