"""Every pair of models on every axis: paired bootstrap test, Holm per axis, discriminability."""

from __future__ import annotations

from itertools import combinations

import numpy as np

from attunebench.stats.contract import AXES
from attunebench.stats.matrix import ScoreMatrix
from attunebench.stats.multiple import holm
from attunebench.stats.resampling import (
    bca_interval,
    centred_p_value,
    masked,
    ratio_replicates,
)
from attunebench.stats.results import Discriminability, PairTest, number


def paired_tests(
    matrix: ScoreMatrix,
    counts: np.ndarray,
    models: tuple[str, ...],
    *,
    mode: str,
    confidence: float,
    alpha: float,
    axes: tuple[str, ...] = AXES,
    across_axes: bool = False,
) -> tuple[PairTest, ...]:
    """Mean of (a - b) over the conversations both models were scored on, per pair and axis.

    Paired, because the same conversations are hard or easy for every model: differencing
    within a conversation removes that shared variance, which is most of the variance, so the
    test sees far smaller differences than comparing two independent means would. The
    resampled conversations are the same count matrix as the means'. "Distinguished" means the
    Holm-adjusted p-value (over the pairs of that axis, or with ``across_axes`` over every
    axis-pair test) is below ``alpha``; both adjusted p-values are kept. The intervals are not
    adjusted for multiplicity.
    """
    pairs = list(combinations(range(len(models)), 2))
    if not pairs:
        return ()
    first = np.array([a for a, _ in pairs])
    second = np.array([b for _, b in pairs])
    differences = np.concatenate(
        [
            matrix.axis_columns(axis, mode, models)[:, first]
            - matrix.axis_columns(axis, mode, models)[:, second]
            for axis in axes
        ],
        axis=1,
    )
    replicates = ratio_replicates(counts, *masked(differences))
    low, high = bca_interval(replicates, confidence)
    p_values = centred_p_value(replicates)
    shared = np.isfinite(differences).sum(axis=0)
    within, across = holm_families([number(p) for p in p_values], len(pairs))
    tests = []
    for i, axis in enumerate(axes):
        for k, (a, b) in enumerate(pairs):
            j = i * len(pairs) + k
            decisive = across[j] if across_axes else within[j]
            tests.append(
                PairTest(
                    axis=axis,
                    model_a=models[a],
                    model_b=models[b],
                    n_shared=int(shared[j]),
                    difference=number(replicates.estimate[j]),
                    ci_low=number(low[j]),
                    ci_high=number(high[j]),
                    p_value=number(p_values[j]),
                    p_holm=within[j],
                    distinguished=decisive is not None and decisive < alpha,
                    p_holm_across_axes=across[j],
                )
            )
    return tuple(tests)


def holm_families(
    p_values: list[float | None], family_size: int
) -> tuple[list[float | None], list[float | None]]:
    """Holm-adjusted p-values of consecutive families of ``family_size`` tests (one axis'
    pairs each), and Holm over all of them at once (every axis-pair test, across the axes).

    Within an axis, the family-wise error is held at alpha per axis; with K axes the chance of
    some false "distinguished" pair somewhere can reach K x alpha. Across the axes it is held
    at alpha over the whole table, at the cost of power."""
    within: list[float | None] = []
    for start in range(0, len(p_values), family_size or 1):
        within += holm(p_values[start : start + family_size])
    return within, holm(p_values)


def discriminability(
    matrix: ScoreMatrix,
    pairs: tuple[PairTest, ...],
    models: tuple[str, ...],
    *,
    mode: str,
    axes: tuple[str, ...] = AXES,
) -> tuple[Discriminability, ...]:
    """How well each axis separates the models.

    Two views: the share of pairs the paired test distinguishes (what a reader of the
    leaderboard can trust), and the variance of the model means over the pooled variance of
    conversations within a model (how large model differences are next to conversation noise,
    free of the axis' scale). The one-way ANOVA F puts the latter on the scale where 1 means
    "no more spread between models than chance"; it ignores the pairing, so it is descriptive.
    """
    results = []
    for axis in axes:
        tests = [t for t in pairs if t.axis == axis and t.p_holm is not None]
        distinguished = sum(t.distinguished for t in tests)
        values = matrix.axis_columns(axis, mode, models)
        sizes = np.isfinite(values).sum(axis=0)
        present = sizes > 0
        values, sizes = values[:, present], sizes[present]
        between = within = ratio = f_statistic = None
        if sizes.size >= 2 and sizes.sum() > sizes.size:
            means = np.nanmean(values, axis=0)
            grand = np.nansum(values) / sizes.sum()
            between = float(np.var(means, ddof=1))
            within = float(np.nansum((values - means) ** 2) / (sizes.sum() - sizes.size))
            mean_square = float((sizes * (means - grand) ** 2).sum() / (sizes.size - 1))
            ratio = between / within if within > 0 else None
            f_statistic = mean_square / within if within > 0 else None
        results.append(
            Discriminability(
                axis=axis,
                n_models=int(present.sum()),
                n_pairs=len(tests),
                n_distinguished=int(distinguished),
                share_distinguished=distinguished / len(tests) if tests else None,
                between_model_variance=between,
                within_model_variance=within,
                variance_ratio=ratio,
                f_statistic=f_statistic,
            )
        )
    return tuple(results)
