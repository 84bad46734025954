"""Holm's step-down correction for multiple tests."""

from __future__ import annotations

import math
from collections.abc import Sequence


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
