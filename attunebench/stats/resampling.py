"""The conversation-level bootstrap, vectorised as count matrices.

Why conversations: every score of a model comes from the same participant conversations, so a
conversation is the independent unit (turns of one conversation, and the models' scores of one
conversation, are correlated). A resample draws conversations with replacement.

Why count matrices: a resample is stored as how often each conversation was drawn, one row of
a (resamples x conversations) matrix. The mean of every (model, axis) column in every resample
is then one matrix product, ``counts @ (value x defined) / counts @ defined``; an undefined score
(NaN) simply weighs 0 in both sums, so models with missing conversations need no special path.
The same count matrix serves every model, so a paired comparison sees the same resampled
conversations on both sides, as the paired bootstrap requires.

Intervals are BCa (bias-corrected and accelerated, Efron 1987): scores are bounded and often
skewed near 0 or 1, where the plain percentile interval is off-centre; BCa corrects the median
bias and the skew at second order. Its acceleration needs the jackknife, which for a ratio of
sums has a closed form (leave unit i out: subtract its row), so it costs no extra resampling.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr, ndtri


def resample_counts(
    n_units: int, n_resamples: int, rng: np.random.Generator, strata: np.ndarray | None = None
) -> np.ndarray:
    """(n_resamples, n_units) float64 draw counts; each row is one bootstrap resample.

    With ``strata`` (an int label per unit, -1 = excluded), each stratum is resampled within
    itself, so every resample keeps each group's size: group comparisons then vary only the
    conversations, never how many of each group there are.
    """
    if strata is None:
        draws = rng.integers(0, n_units, size=(n_resamples, n_units))
    else:
        blocks = []
        for label in np.unique(strata[strata >= 0]):
            members = np.flatnonzero(strata == label)
            blocks.append(members[rng.integers(0, members.size, size=(n_resamples, members.size))])
        draws = np.concatenate(blocks, axis=1) if blocks else np.empty((n_resamples, 0), int)
    # One bincount over row-offset indices counts every row at once.
    offsets = (np.arange(n_resamples) * n_units)[:, None]
    flat = np.bincount((draws + offsets).ravel(), minlength=n_resamples * n_units)
    return flat.reshape(n_resamples, n_units).astype(np.float64)


@dataclass(frozen=True)
class Replicates:
    """K statistics with their bootstrap replicates and leave-one-unit-out (jackknife) values.

    ``jackknife[k, i]`` is NaN when unit i is not part of statistic k's sample (e.g. a
    conversation the model was not run on): the jackknife runs over the sample, not the universe.
    """

    estimate: np.ndarray  # (K,)
    boot: np.ndarray  # (K, B)
    jackknife: np.ndarray  # (K, n)

    def __sub__(self, other: Replicates) -> Replicates:
        # A unit outside one side's sample leaves that side at its full-sample estimate.
        own = np.where(np.isnan(self.jackknife), self.estimate[:, None], self.jackknife)
        theirs = np.where(np.isnan(other.jackknife), other.estimate[:, None], other.jackknife)
        outside = np.isnan(self.jackknife) & np.isnan(other.jackknife)
        return Replicates(
            estimate=self.estimate - other.estimate,
            boot=self.boot - other.boot,
            jackknife=np.where(outside, np.nan, own - theirs),
        )


def ratio_replicates(counts: np.ndarray, values: np.ndarray, weights: np.ndarray) -> Replicates:
    """Statistics ``sum(w x) / sum(w)`` per column (a mean over the units with weight 1).

    ``values`` and ``weights`` are (n_units, K); ``values`` must be 0 where ``weights`` is 0
    (use ``masked``). ``counts`` is a ``resample_counts`` matrix.
    """
    numerators = values * weights
    with np.errstate(invalid="ignore", divide="ignore"):
        boot = (numerators.T @ counts.T) / (weights.T @ counts.T)
        total, size = numerators.sum(axis=0), weights.sum(axis=0)
        estimate = total / size
        jackknife = ((total - numerators) / (size - weights)).T
    jackknife[weights.T == 0] = np.nan
    return Replicates(estimate=estimate, boot=boot, jackknife=jackknife)


def masked(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(values with NaN as 0, 0/1 weights of the defined values), for ``ratio_replicates``."""
    defined = np.isfinite(values)
    return np.where(defined, values, 0.0), defined.astype(np.float64)


def _acceleration(jackknife: np.ndarray) -> np.ndarray:
    valid = np.isfinite(jackknife)
    size = valid.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        centre = np.where(valid, jackknife, 0.0).sum(axis=1) / size
        spread = np.where(valid, centre[:, None] - jackknife, 0.0)
        numerator = (spread**3).sum(axis=1)
        denominator = 6.0 * (spread**2).sum(axis=1) ** 1.5
        accel = numerator / denominator
    # No spread (a constant sample or a single unit): no skew to correct.
    return np.where(denominator > 0, accel, 0.0)


def _sorted_quantile(ordered: np.ndarray, n_finite: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """Linear-interpolated quantile per row of a sorted array whose NaNs sort last."""
    position = levels * np.maximum(n_finite - 1, 0)
    below = np.floor(position).astype(int)
    above = np.minimum(below + 1, np.maximum(n_finite - 1, 0))
    low = np.take_along_axis(ordered, below[:, None], axis=1)[:, 0]
    high = np.take_along_axis(ordered, above[:, None], axis=1)[:, 0]
    return np.where(n_finite > 0, low + (high - low) * (position - below), np.nan)


def bca_interval(replicates: Replicates, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """BCa interval per statistic; NaN where the statistic is undefined.

    Resamples where the statistic is undefined (a group drawn empty) are left out. The bias
    correction counts ties with the estimate as half below, which keeps discrete scores (many
    conversations at exactly 1.0) from biasing z0; its proportion is kept inside
    [0.5/B, 1 - 0.5/B] so z0 stays finite when every replicate falls on one side.
    """
    boot, estimate = replicates.boot, replicates.estimate[:, None]
    n_finite = np.isfinite(boot).sum(axis=1)
    below = (boot < estimate).sum(axis=1) + 0.5 * (boot == estimate).sum(axis=1)
    safe_n = np.maximum(n_finite, 1)
    z0 = ndtri(np.clip(below / safe_n, 0.5 / safe_n, 1 - 0.5 / safe_n))
    accel = _acceleration(replicates.jackknife)
    z = ndtri(np.array([(1 - confidence) / 2, (1 + confidence) / 2]))[:, None]
    shifted = z0 + z
    levels = ndtr(z0 + shifted / (1 - accel * shifted))
    ordered = np.sort(boot, axis=1)
    low = _sorted_quantile(ordered, n_finite, levels[0])
    high = _sorted_quantile(ordered, n_finite, levels[1])
    undefined = ~np.isfinite(replicates.estimate)
    return np.where(undefined, np.nan, low), np.where(undefined, np.nan, high)


def centred_p_value(replicates: Replicates) -> np.ndarray:
    """Two-sided bootstrap p-value of "the statistic is 0".

    The bootstrap distribution shifted to the null (``boot - estimate``) stands in for the
    sampling distribution under H0 (Efron and Tibshirani 1993, ch. 16; the paired bootstrap of
    Berg-Kirkpatrick et al. 2012, two-sided): p = (1 + #{|boot - est| >= |est|}) / (1 + B).
    The +1s make it a valid p-value that is never 0 (Davison and Hinkley 1997, 4.2).
    """
    boot, estimate = replicates.boot, replicates.estimate[:, None]
    n_finite = np.isfinite(boot).sum(axis=1)
    extreme = (np.abs(boot - estimate) >= np.abs(estimate) - 1e-12).sum(axis=1)
    p = (1 + extreme) / (1 + n_finite)
    return np.where(np.isfinite(replicates.estimate), np.minimum(p, 1.0), np.nan)
