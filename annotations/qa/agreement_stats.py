"""Inter-rater agreement: Cohen's kappa and Krippendorff's alpha (nominal). Pure Python.

No Django here, so the figures can be checked by hand in tests and recomputed from a release.
Both return ``None`` where the statistic is undefined (no data, or no variation at all: when
every rating is the same category, chance agreement is 1 and the ratio is 0/0).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence


def cohen_kappa(pairs: Sequence[tuple[Hashable, Hashable]]) -> float | None:
    """Cohen's kappa of two raters over items rated by both: (p_o - p_e) / (1 - p_e).

    p_o is the share of items on which the raters agree; p_e the agreement expected by chance
    from each rater's own category frequencies.
    """
    n = len(pairs)
    if n == 0:
        return None
    observed = sum(first == second for first, second in pairs) / n
    first_counts = Counter(first for first, _ in pairs)
    second_counts = Counter(second for _, second in pairs)
    expected = sum(count * second_counts[c] for c, count in first_counts.items()) / (n * n)
    if expected == 1:
        return None
    return (observed - expected) / (1 - expected)


def krippendorff_alpha_nominal(units: Iterable[Iterable[Hashable | None]]) -> float | None:
    """Krippendorff's alpha for nominal data: 1 - D_o / D_e, any number of coders, gaps allowed.

    Each unit is the values the coders gave it (``None`` = that coder gave none). Units with
    fewer than two values cannot be paired and are left out, as the method prescribes. With the
    coincidence matrix o (each unit with m values adds 1/(m-1) per ordered pair of its values)
    and the marginals n_c, alpha = 1 - (n - 1) * sum_{c!=k} o_ck / sum_{c!=k} n_c * n_k.
    """
    coincidences: dict[tuple[Hashable, Hashable], float] = defaultdict(float)
    for unit in units:
        values = [value for value in unit if value is not None]
        m = len(values)
        if m < 2:
            continue
        counts = Counter(values)
        for c, n_c in counts.items():
            for k, n_k in counts.items():
                ordered_pairs = n_c * (n_k - 1) if c == k else n_c * n_k
                coincidences[c, k] += ordered_pairs / (m - 1)
    marginals: dict[Hashable, float] = defaultdict(float)
    for (c, _), weight in coincidences.items():
        marginals[c] += weight
    n = sum(marginals.values())
    observed = sum(weight for (c, k), weight in coincidences.items() if c != k)
    expected = sum(marginals[c] * marginals[k] for c in marginals for k in marginals if c != k)
    if n <= 1 or expected == 0:
        return None
    return 1 - (n - 1) * observed / expected
