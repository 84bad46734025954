"""Each axis by participant trait, topic and original model: a level's mean minus its reference.

The unit is the conversation: each conversation's score on an axis is the mean over the
(non-baseline) models scored on it, because the models' scores of one conversation are not
independent evidence about the participant's group. Per-model subgroup cells would be small
and multiply the comparisons, so they are left to ad-hoc analysis of the score frame.

The bootstrap is stratified by level (each level resampled within itself), so group sizes stay
as observed and a small group never vanishes from a resample. Small groups are kept and marked.
"""

from __future__ import annotations

import numpy as np

from evaluation.benchmark.stats.contract import AXES, SubgroupSpec
from evaluation.benchmark.stats.matrix import ScoreMatrix
from evaluation.benchmark.stats.resampling import (
    bca_interval,
    masked,
    ratio_replicates,
    resample_counts,
)
from evaluation.benchmark.stats.results import SubgroupDifference, number

REST = "rest"


def pooled_scores(matrix: ScoreMatrix, models: tuple[str, ...], mode: str) -> np.ndarray:
    """(n_conversations, n_axes): per conversation, the mean over the models scored on it."""
    pooled = []
    for axis in AXES:
        values, defined = masked(matrix.axis_columns(axis, mode, models))
        with np.errstate(invalid="ignore", divide="ignore"):
            pooled.append(values.sum(axis=1) / defined.sum(axis=1))
    return np.column_stack(pooled)


def subgroup_differences(
    matrix: ScoreMatrix,
    pooled: np.ndarray,
    spec: SubgroupSpec,
    *,
    n_resamples: int,
    rng: np.random.Generator,
    confidence: float,
    min_group_size: int,
) -> tuple[SubgroupDifference, ...]:
    labels = matrix.groups[spec.column]
    levels = sorted({label for label in labels if label is not None})
    compared = [level for level in levels if level != spec.reference]
    if not compared:
        return ()
    strata = np.array([-1 if label is None else levels.index(label) for label in labels])
    counts = resample_counts(len(labels), n_resamples, rng, strata)
    values, defined = masked(pooled)
    has_value = (strata >= 0)[:, None]

    def weights_of(members: np.ndarray) -> np.ndarray:
        weights: np.ndarray = defined * members[:, None]
        return weights

    level_weights = [weights_of(labels == level) for level in compared]
    if spec.reference is None:
        reference_weights = [
            defined * (has_value & ~(labels == level)[:, None]) for level in compared
        ]
    else:
        reference_weights = [weights_of(labels == spec.reference)] * len(compared)
    level_stats = ratio_replicates(
        counts, np.tile(values, len(compared)), np.concatenate(level_weights, axis=1)
    )
    reference_stats = ratio_replicates(
        counts, np.tile(values, len(compared)), np.concatenate(reference_weights, axis=1)
    )
    difference = level_stats - reference_stats
    low, high = bca_interval(difference, confidence)
    n_level = np.concatenate(level_weights, axis=1).sum(axis=0)
    n_reference = np.concatenate(reference_weights, axis=1).sum(axis=0)
    results = []
    for i, level in enumerate(compared):
        for a, axis in enumerate(AXES):
            j = i * len(AXES) + a
            results.append(
                SubgroupDifference(
                    grouping=spec.column,
                    level=level,
                    reference=spec.reference or REST,
                    axis=axis,
                    mean_level=number(level_stats.estimate[j]),
                    mean_reference=number(reference_stats.estimate[j]),
                    difference=number(difference.estimate[j]),
                    ci_low=number(low[j]),
                    ci_high=number(high[j]),
                    n_level=int(n_level[j]),
                    n_reference=int(n_reference[j]),
                    small=bool(min(n_level[j], n_reference[j]) < min_group_size),
                )
            )
    return tuple(results)
