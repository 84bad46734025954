"""Holm's step-down correction for multiple tests, and the record of what a report corrects."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm-adjusted p-values (Holm 1979); undefined p-values stay None and do not count.

    Why Holm: it controls the family-wise error rate like Bonferroni under any dependence
    between the tests (the pairs of one axis share models and conversations, so they are
    dependent) and is uniformly more powerful. The i-th smallest of m p-values is multiplied
    by (m - i + 1); a running maximum keeps the adjusted values in the order of the raw ones.
    """
    defined = [
        (p, index) for index, p in enumerate(p_values) if p is not None and not math.isnan(p)
    ]
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, index) in enumerate(sorted(defined)):
        running = max(running, min(1.0, (len(defined) - rank) * p))
        adjusted[index] = running
    return adjusted


def multiplicity_record(
    *,
    across_axes: bool,
    alpha: float,
    confidence: float,
    tested_axes: Sequence[str],
    n_models: int,
) -> dict[str, Any]:
    """What the report corrects for multiple comparisons and what it does not, in counts and
    one plain paragraph (report.json and report.html carry both).

    The pair tests of one axis are a family: Holm holds the chance of any false
    "distinguished" pair of that axis at ``alpha``. Over K axes corrected separately that
    chance can reach K x ``alpha`` (the union bound); correcting across the axes holds it at
    ``alpha`` over the whole table. Intervals are never adjusted: each is a plain
    ``confidence`` interval, to be read one at a time."""
    pairs_per_axis = n_models * (n_models - 1) // 2
    n_axes = len(tested_axes)
    total = pairs_per_axis * n_axes
    level = f"{confidence:.0%}"
    if across_axes:
        corrected = (
            f"Pair tests are corrected across the axes: Holm over all {total} axis-pair tests "
            f"({n_axes} axes x {pairs_per_axis} pairs) as one family, so the chance of any "
            f"false 'distinguished' pair in the whole table is held at {alpha:g}."
        )
        not_corrected: list[str] = []
    else:
        bound = min(1.0, n_axes * alpha)
        corrected = (
            f"Pair tests are corrected within each axis: Holm over the {pairs_per_axis} pairs "
            f"of an axis, so the chance of a false 'distinguished' pair is held at {alpha:g} "
            f"per axis. They are not corrected across the {n_axes} axes: the chance of some "
            f"false difference somewhere in the table can reach {bound:.0%} ({n_axes} x "
            f"{alpha:g}). The Holm p-value over all {total} axis-pair tests is given beside "
            "each pair (p_holm_across_axes); a report made with the across-axes option counts "
            "'distinguished' with it."
        )
        not_corrected = [f"pair tests across the {n_axes} axes"]
    not_corrected += [
        "Kendall's tau p-values of the pairs of axes (one per pair, unadjusted)",
        "subgroup tests across the axes (Holm is over the group comparisons of each axis)",
        "mode deltas (one interval per model and axis)",
    ]
    intervals = [
        "leaderboard means",
        "rank intervals",
        "pair differences",
        "subgroup differences",
        "mode deltas",
        "Cohen's kappa",
    ]
    statement = (
        f"{corrected} Every interval in this report ({', '.join(intervals)}) is an unadjusted "
        f"{level} interval: read one at a time, not as a set that holds together; among many "
        f"intervals some will miss by chance. Not corrected: {'; '.join(not_corrected)}."
    )
    return {
        "correction": "holm_across_axes" if across_axes else "holm_within_axis",
        "alpha": alpha,
        "tested_axes": list(tested_axes),
        "pairs_per_axis": pairs_per_axis,
        "family_size": total if across_axes else pairs_per_axis,
        "families": 1 if across_axes else n_axes,
        "total_pair_tests": total,
        "worst_case_any_false_difference": alpha if across_axes else min(1.0, n_axes * alpha),
        "not_corrected": not_corrected,
        "unadjusted_intervals": intervals,
        "interval_level": confidence,
        "statement": statement,
    }
