"""Each axis by participant trait, topic and original model: a level's mean minus its reference.

The score of a conversation on an axis is the mean over the (non-baseline) models scored on it,
because the models' scores of one conversation are not independent evidence about the
participant's group. Per-model subgroup cells would be small and multiply the comparisons, so
they are left to ad-hoc analysis of the score frame.

The unit of resampling is the participant (a cluster bootstrap): a participant's conversations
share the person, so they are not independent evidence either, and resampling them one by one
makes the intervals too narrow when participants have several. Each resample draws participants
with replacement and keeps all their conversations; the means stay means over conversations.
When every participant's conversations share one level (trait groups), the draw is stratified
by level, so the groups keep their number of participants and a small group never vanishes.
Each difference gets a BCa interval and a two-sided null-centred bootstrap p-value; Holm over
all the comparisons of an axis (``holm_by_axis``). Small groups (fewer participants than the
minimum on either side) are kept and marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from attunebench.stats.contract import AXES, SubgroupSpec
from attunebench.stats.matrix import ScoreMatrix
from attunebench.stats.multiple import holm
from attunebench.stats.resampling import (
    bca_interval,
    centred_p_value,
    masked,
    ratio_replicates,
    resample_counts,
)
from attunebench.stats.results import SubgroupDifference, number

REST = "rest"


def pooled_scores(matrix: ScoreMatrix, models: tuple[str, ...], mode: str) -> np.ndarray:
    """(n_conversations, n_axes): per conversation, the mean over the models scored on it."""
    pooled = []
    for axis in AXES:
        values, defined = masked(matrix.axis_columns(axis, mode, models))
        with np.errstate(invalid="ignore", divide="ignore"):
            pooled.append(values.sum(axis=1) / defined.sum(axis=1))
    return np.column_stack(pooled)


def _cluster_sums(
    clusters: np.ndarray, n_clusters: int, values: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per participant: the mean of its conversations' values (0 where none counts) and their
    number, so ``sum(w x) / sum(w)`` over participants is the mean over conversations."""
    total = np.zeros((n_clusters, weights.shape[1]))
    weighted = np.zeros_like(total)
    np.add.at(total, clusters, weights)
    np.add.at(weighted, clusters, weights * values)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(total > 0, weighted / total, 0.0)
    return means, total


def _strata(clusters: np.ndarray, n_clusters: int, strata: np.ndarray) -> np.ndarray:
    """Each participant's level, when all their conversations share one (a trait): the
    bootstrap then keeps every group's number of participants. Where a participant's
    conversations fall in several levels (topics), participants are resampled unstratified."""
    levels: list[set[int]] = [set() for _ in range(n_clusters)]
    for cluster, stratum in zip(clusters, strata, strict=True):
        if stratum >= 0:
            levels[cluster].add(int(stratum))
    if all(len(found) <= 1 for found in levels):
        return np.array([next(iter(found)) if found else -1 for found in levels])
    return np.array([0 if found else -1 for found in levels])


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
    """Each level minus its reference on every axis: the means over conversations, with a BCa
    interval and a two-sided bootstrap p-value from resampling participants (each with all
    their conversations). Unadjusted: ``holm_by_axis`` adjusts the p-values of a report."""
    labels = matrix.groups[spec.column]
    levels = sorted({label for label in labels if label is not None})
    compared = [level for level in levels if level != spec.reference]
    if not compared:
        return ()
    strata = np.array([-1 if label is None else levels.index(label) for label in labels])
    clusters = matrix.clusters()
    n_clusters = int(clusters.max()) + 1 if clusters.size else 0
    counts = resample_counts(n_clusters, n_resamples, rng, _strata(clusters, n_clusters, strata))
    values, defined = masked(pooled)
    has_value = (strata >= 0)[:, None]

    def weights_of(members: np.ndarray) -> np.ndarray:
        weights: np.ndarray = defined * members[:, None]
        return weights

    level_weights = np.concatenate([weights_of(labels == level) for level in compared], axis=1)
    if spec.reference is None:
        reference_weights = np.concatenate(
            [defined * (has_value & ~(labels == level)[:, None]) for level in compared], axis=1
        )
    else:
        reference_weights = np.concatenate(
            [weights_of(labels == spec.reference)] * len(compared), axis=1
        )
    tiled = np.tile(values, len(compared))
    level_stats = ratio_replicates(
        counts, *_cluster_sums(clusters, n_clusters, tiled, level_weights)
    )
    reference_stats = ratio_replicates(
        counts, *_cluster_sums(clusters, n_clusters, tiled, reference_weights)
    )
    difference = level_stats - reference_stats
    low, high = bca_interval(difference, confidence)
    p_values = centred_p_value(difference)
    n_level, n_reference = level_weights.sum(axis=0), reference_weights.sum(axis=0)
    people_level = _participants(clusters, n_clusters, level_weights)
    people_reference = _participants(clusters, n_clusters, reference_weights)
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
                    small=bool(min(people_level[j], people_reference[j]) < min_group_size),
                    n_level_participants=int(people_level[j]),
                    n_reference_participants=int(people_reference[j]),
                    p_value=number(p_values[j]),
                )
            )
    return tuple(results)


def _participants(clusters: np.ndarray, n_clusters: int, weights: np.ndarray) -> np.ndarray:
    """Per column, how many participants have a conversation that counts."""
    total = np.zeros((n_clusters, weights.shape[1]))
    np.add.at(total, clusters, weights)
    counted: np.ndarray = (total > 0).sum(axis=0)
    return counted


def holm_by_axis(found: Sequence[SubgroupDifference]) -> tuple[SubgroupDifference, ...]:
    """Holm over every subgroup comparison of an axis (all groupings and levels together)."""
    adjusted: dict[int, float | None] = {}
    for axis in dict.fromkeys(d.axis for d in found):
        indices = [i for i, d in enumerate(found) if d.axis == axis]
        for i, p in zip(indices, holm([found[i].p_value for i in indices]), strict=True):
            adjusted[i] = p
    return tuple(replace(d, p_holm=adjusted.get(i)) for i, d in enumerate(found))
