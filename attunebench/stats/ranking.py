"""Rank independence of the axes: Kendall's tau per pair of axes and Kendall's W over all.

Rankings are of the non-baseline models by their mean on each axis (primary mode). With about
11 models the null distributions are far from their large-sample approximations, so both
p-values come from permutations: the exact distribution when every permutation fits in the
budget (k! <= n_permutations: up to 7 models with 10,000), else a seeded Monte Carlo sample.
"""

from __future__ import annotations

import math
from itertools import combinations, permutations

import numpy as np
from scipy.stats import chi2, rankdata

from attunebench.stats.results import Concordance, RankCorrelation, number


def _pair_signs(values: np.ndarray) -> np.ndarray:
    """sign(x_i - x_j) for every i < j, along the last axis."""
    first, second = np.triu_indices(values.shape[-1], k=1)
    signs: np.ndarray = np.sign(values[..., first] - values[..., second])
    return signs


def kendall_tau(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-b (ties corrected, as ``scipy.stats.kendalltau``'s default)."""
    sx, sy = _pair_signs(np.asarray(x, float)), _pair_signs(np.asarray(y, float))
    denominator = math.sqrt(np.abs(sx).sum() * np.abs(sy).sum())
    return float((sx * sy).sum() / denominator) if denominator else math.nan


def _permutation_orders(
    k: int, n_permutations: int, rng: np.random.Generator
) -> tuple[np.ndarray, bool]:
    if math.factorial(k) <= n_permutations:
        return np.array(list(permutations(range(k)))), True
    return rng.permuted(np.tile(np.arange(k), (n_permutations, 1)), axis=1), False


def kendall_tau_test(
    x: np.ndarray, y: np.ndarray, n_permutations: int, rng: np.random.Generator
) -> tuple[float, float, bool]:
    """(tau-b, two-sided permutation p-value, exact?). Shuffling y's order breaks any pairing
    between the rankings while keeping each ranking's ties, which is the null of independence."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    tau = kendall_tau(x, y)
    if math.isnan(tau):
        return tau, math.nan, False
    orders, exact = _permutation_orders(len(x), n_permutations, rng)
    sx, sy = _pair_signs(x), _pair_signs(y[orders])
    # Ties are invariant under permutation, so every tau* shares tau's denominator.
    taus = (sy @ sx) / math.sqrt(np.abs(sx).sum() * np.abs(sy[0]).sum())
    extreme = int((np.abs(taus) >= abs(tau) - 1e-12).sum())
    # Exact: the identity is among the permutations. Monte Carlo: add the observed ranking.
    p = extreme / len(orders) if exact else (1 + extreme) / (1 + len(orders))
    return tau, p, exact


def _w_statistic(ranks: np.ndarray) -> np.ndarray:
    """Kendall's W of (..., m raters, n objects) average ranks, with the tie correction."""
    m, n = ranks.shape[-2], ranks.shape[-1]
    totals = ranks.sum(axis=-2)
    spread = ((totals - m * (n + 1) / 2) ** 2).sum(axis=-1)
    w: np.ndarray = 12 * spread / (m**2 * (n**3 - n))
    return w


def kendall_w(ranks: np.ndarray) -> float:
    """Kendall's W of an (m raters, n objects) array of scores (higher = better rank).

    W = 12 S / (m^2 (n^3 - n) - m T), S the squared deviations of the rank sums from their
    mean, T = sum over raters and tie groups of (t^3 - t).
    """
    ranks = np.asarray(ranks, float)
    m, n = ranks.shape
    average = rankdata(-ranks, axis=1)
    ties = 0.0
    for row in average:
        _, sizes = np.unique(row, return_counts=True)
        ties += float((sizes**3 - sizes).sum())
    denominator = m**2 * (n**3 - n) - m * ties
    totals = average.sum(axis=0)
    spread = float(((totals - m * (n + 1) / 2) ** 2).sum())
    return 12 * spread / denominator if denominator else math.nan


def rank_correlations(
    means: dict[str, np.ndarray],
    axes: tuple[str, ...],
    n_permutations: int,
    rng: np.random.Generator,
) -> tuple[RankCorrelation, ...]:
    """tau for every two axes, over the models with a mean on both (at least 3)."""
    results = []
    for a, b in combinations(axes, 2):
        both = np.isfinite(means[a]) & np.isfinite(means[b])
        tau = p = None
        exact = False
        if both.sum() >= 3:
            tau_value, p_value, exact = kendall_tau_test(
                means[a][both], means[b][both], n_permutations, rng
            )
            tau, p = number(tau_value), number(p_value)
        results.append(RankCorrelation(a, b, int(both.sum()), tau, p, exact))
    return tuple(results)


def concordance(
    means: dict[str, np.ndarray],
    axes: tuple[str, ...],
    n_permutations: int,
    rng: np.random.Generator,
) -> Concordance | None:
    """Kendall's W over the models with a mean on every axis, with two p-values: the usual
    chi-square approximation m (n - 1) W ~ chi2(n - 1), and a permutation p-value (each axis'
    ranking shuffled on its own), which is the one to trust for few models."""
    scores = np.array([means[axis] for axis in axes])
    complete = np.isfinite(scores).all(axis=0)
    scores = scores[:, complete]
    m, n = scores.shape
    if m < 2 or n < 3:
        return None
    w = kendall_w(scores)
    statistic = m * (n - 1) * w
    ranks = rankdata(-scores, axis=1)
    shuffled = rng.permuted(np.broadcast_to(ranks, (n_permutations, m, n)).copy(), axis=2)
    # Average ranks keep their tie groups under shuffling, so the tie term is shared: compare
    # the uncorrected statistic, which orders permutations the same way.
    observed = _w_statistic(ranks)
    extreme = int((_w_statistic(shuffled) >= observed - 1e-12).sum())
    return Concordance(
        axes=tuple(axes),
        n_models=int(n),
        w=number(w),
        chi_square=number(statistic),
        chi_square_p_value=number(chi2.sf(statistic, n - 1)),
        p_value=(1 + extreme) / (1 + n_permutations),
    )
