"""Per model, mode and axis: the mean with a BCa interval, and rank intervals for the leaderboard."""

from __future__ import annotations

import numpy as np

from attunebench.stats.contract import AXES, is_baseline
from attunebench.stats.matrix import ScoreMatrix
from attunebench.stats.resampling import (
    Replicates,
    bca_interval,
    masked,
    ratio_replicates,
)
from attunebench.stats.results import AxisEstimate, number


def mean_replicates(matrix: ScoreMatrix, counts: np.ndarray) -> dict[str, Replicates]:
    """Bootstrap means of every (model, mode) column, per axis, from one count matrix."""
    stacked = np.concatenate([matrix.values[axis] for axis in AXES], axis=1)
    everything = ratio_replicates(counts, *masked(stacked))
    width = len(matrix.columns)
    return {
        axis: Replicates(
            estimate=everything.estimate[i * width : (i + 1) * width],
            boot=everything.boot[i * width : (i + 1) * width],
            jackknife=everything.jackknife[i * width : (i + 1) * width],
        )
        for i, axis in enumerate(AXES)
    }


def rank_interval(boot: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Rank of each model (1 = highest mean) in every resample, and its central interval.

    The rank interval says which places a model could hold given the conversation sample: a
    leaderboard of means alone suggests a precision that 200 conversations do not have. A model
    undefined in a resample ranks last there. Integer ends: the lower quantile rounds down and
    the upper rounds up, so the interval never claims more precision than the resamples show.
    """
    filled = np.where(np.isnan(boot), -np.inf, boot)  # (models, B)
    ranks = 1 + (filled[None, :, :] > filled[:, None, :]).sum(axis=1)
    tail = (1 - confidence) / 2
    low = np.quantile(ranks, tail, axis=1, method="lower")
    high = np.quantile(ranks, 1 - tail, axis=1, method="higher")
    return low.astype(int), high.astype(int)


def point_ranks(means: np.ndarray) -> np.ndarray:
    """1 = highest mean; ties share the better rank; undefined means rank last."""
    filled = np.where(np.isnan(means), -np.inf, means)
    ranks: np.ndarray = 1 + (filled[None, :] > filled[:, None]).sum(axis=1)
    return ranks


def axis_estimates(
    matrix: ScoreMatrix,
    replicates: dict[str, Replicates],
    *,
    primary_mode: str,
    confidence: float,
    ranked_axes: tuple[str, ...] = AXES,
) -> tuple[AxisEstimate, ...]:
    """Every column's mean and interval on every axis; ranks only on ``ranked_axes``."""
    ranked = [
        i for i, (m, md) in enumerate(matrix.columns) if md == primary_mode and not is_baseline(m)
    ]
    estimates = []
    for axis in AXES:
        rep = replicates[axis]
        low, high = bca_interval(rep, confidence)
        n = np.isfinite(matrix.values[axis]).sum(axis=0)
        # column -> (rank, rank_low, rank_high); None where the model is not ranked
        rank: dict[int, tuple[int | None, int | None, int | None]] = dict.fromkeys(
            range(len(matrix.columns)), (None, None, None)
        )
        if ranked and axis in ranked_axes:
            point = point_ranks(rep.estimate[ranked])
            rank_low, rank_high = rank_interval(rep.boot[ranked], confidence)
            for j, column in enumerate(ranked):
                if np.isfinite(rep.estimate[column]):
                    rank[column] = (int(point[j]), int(rank_low[j]), int(rank_high[j]))
        for column, (model, mode) in enumerate(matrix.columns):
            estimates.append(
                AxisEstimate(
                    model=model,
                    mode=mode,
                    axis=axis,
                    mean=number(rep.estimate[column]),
                    ci_low=number(low[column]),
                    ci_high=number(high[column]),
                    n=int(n[column]),
                    baseline=is_baseline(model),
                    rank=rank[column][0],
                    rank_low=rank[column][1],
                    rank_high=rank[column][2],
                )
            )
    return tuple(estimates)
