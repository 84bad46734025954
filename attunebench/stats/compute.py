"""``compute_statistics``: every statistic of a run from its score frame, reproducibly.

Seeds: one integer seed; each part draws from its own stream
``SeedSequence(seed, spawn_key=(part, ...))``, so a part's numbers do not depend on which
other parts ran or in what order, and the seed plus the settings recorded in the output
reproduce every number.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from attunebench.stats.agreement import judge_agreement
from attunebench.stats.contract import (
    AXES,
    PLATFORM_AXES,
    SubgroupSpec,
    default_subgroups,
    independence_axes,
    tested_axes,
    validate_score_frame,
)
from attunebench.stats.estimates import axis_estimates, mean_replicates
from attunebench.stats.failures import parse_failure_rates
from attunebench.stats.matrix import ScoreMatrix, build_matrix
from attunebench.stats.modes import mode_deltas
from attunebench.stats.multiple import multiplicity_record
from attunebench.stats.pairwise import discriminability, paired_tests
from attunebench.stats.ranking import concordance, rank_correlations
from attunebench.stats.reply_agreement import reply_agreement
from attunebench.stats.resampling import Replicates, resample_counts
from attunebench.stats.results import (
    Agreement,
    AxisEstimate,
    ReplyAgreement,
    Statistics,
    SubgroupDifference,
)
from attunebench.stats.subgroups import holm_by_axis, pooled_scores, subgroup_differences

T = TypeVar("T")

# Stream keys of the parts (stable: changing them changes every published number).
STREAMS: dict[str, int] = {
    "conversations": 0,
    "rank_correlations": 1,
    "subgroups": 2,
    "agreement": 3,
    "concordance": 4,
    "reply_agreement": 5,
}


@dataclass(frozen=True)
class StatsConfig:
    seed: int = 20_240_601
    n_resamples: int = 10_000
    n_permutations: int = 10_000
    confidence: float = 0.95
    alpha: float = 0.05  # family-wise, per axis after Holm (or over all axes: holm_across_axes)
    min_group_size: int = 20  # participants; subgroups below it are marked "small" (never hidden)
    primary_mode: str = "default"  # the leaderboard's mode: ranks, pairs, rank independence
    mode_deltas: tuple[tuple[str, str], ...] = (("verbose", "default"), ("omniscient", "default"))
    subgroups: tuple[SubgroupSpec, ...] | None = None  # None: ``default_subgroups(frame)``
    # Also rank and test outcome prediction (this platform's addition to the paper's four axes)
    # and let it enter rank independence; by default it is only reported beside them.
    rank_outcome: bool = False
    # Holm over every axis-pair test at once (across the axes) instead of per axis; both
    # adjusted p-values are always reported, this chooses which one "distinguished" uses.
    holm_across_axes: bool = False


def rng_for(seed: int, *key: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def compute_statistics(
    frame: pd.DataFrame,
    config: StatsConfig | None = None,
    judge_answers: pd.DataFrame | None = None,
    reply_answers: pd.DataFrame | None = None,
    question_categories: Mapping[str, str] | None = None,
) -> Statistics:
    """All statistics of a score frame (``contract``), plus judge reliability when answers
    (``agreement`` contract) are given, and judge-vs-participant agreement when answers about
    the original and edited replies are (``reply_agreement``; ``question_categories`` maps a
    behaviour question id to its category). Pure and deterministic for a given config."""
    config = config or StatsConfig()
    subgroups = config.subgroups if config.subgroups is not None else default_subgroups(frame)
    timings: dict[str, float] = {}

    def timed(name: str, work: Callable[[], T]) -> T:
        start = time.perf_counter()
        result = work()
        timings[name] = time.perf_counter() - start
        return result

    def prepare() -> ScoreMatrix:
        validate_score_frame(frame, subgroups)
        return build_matrix(frame, tuple(spec.column for spec in subgroups))

    matrix = timed("prepare", prepare)
    mode = config.primary_mode
    tested = tested_axes(config.rank_outcome)
    compared = independence_axes(config.rank_outcome)
    models = matrix.models(mode, baselines=False)
    counts = timed(
        "resample",
        lambda: resample_counts(
            len(matrix.conversation_ids),
            config.n_resamples,
            rng_for(config.seed, STREAMS["conversations"]),
        ),
    )

    def estimate() -> tuple[dict[str, Replicates], tuple[AxisEstimate, ...]]:
        replicates = mean_replicates(matrix, counts)
        found = axis_estimates(
            matrix, replicates, primary_mode=mode, confidence=config.confidence, ranked_axes=tested
        )
        return replicates, found

    replicates, estimates = timed("estimates_and_ranks", estimate)
    pairs = timed(
        "pairwise",
        lambda: paired_tests(
            matrix,
            counts,
            models,
            mode=mode,
            confidence=config.confidence,
            alpha=config.alpha,
            axes=tested,
            across_axes=config.holm_across_axes,
        ),
    )
    discrimination = timed(
        "discriminability", lambda: discriminability(matrix, pairs, models, mode=mode, axes=tested)
    )

    ranked = [matrix.columns.index((m, mode)) for m in models]  # models run in this mode
    means = {axis: replicates[axis].estimate[ranked] for axis in AXES}
    correlations = timed(
        "rank_correlations",
        lambda: rank_correlations(
            means,
            compared,
            config.n_permutations,
            rng_for(config.seed, STREAMS["rank_correlations"]),
        ),
    )
    agreement_of_axes = timed(
        "concordance",
        lambda: concordance(
            means, compared, config.n_permutations, rng_for(config.seed, STREAMS["concordance"])
        ),
    )

    def by_subgroup() -> tuple[SubgroupDifference, ...]:
        pooled = pooled_scores(matrix, models, mode)
        found: list[SubgroupDifference] = []
        for index, spec in enumerate(subgroups):
            found += subgroup_differences(
                matrix,
                pooled,
                spec,
                n_resamples=config.n_resamples,
                rng=rng_for(config.seed, STREAMS["subgroups"], index),
                confidence=config.confidence,
                min_group_size=config.min_group_size,
            )
        return holm_by_axis(found)

    subgroup_results = timed("subgroups", by_subgroup)
    deltas = timed(
        "mode_deltas",
        lambda: mode_deltas(
            matrix, counts, models, config.mode_deltas, confidence=config.confidence
        ),
    )
    agreement: tuple[Agreement, ...] = ()
    if judge_answers is not None:
        agreement = timed(
            "judge_agreement",
            lambda: judge_agreement(
                judge_answers,
                n_resamples=config.n_resamples,
                rng=rng_for(config.seed, STREAMS["agreement"]),
                confidence=config.confidence,
            ),
        )
    with_participants: tuple[ReplyAgreement, ...] = ()
    if reply_answers is not None:
        with_participants = timed(
            "reply_agreement",
            lambda: reply_agreement(
                reply_answers,
                question_categories or {},
                n_resamples=config.n_resamples,
                rng=rng_for(config.seed, STREAMS["reply_agreement"]),
                confidence=config.confidence,
            ),
        )
    failures = timed("parse_failures", lambda: parse_failure_rates(frame))
    timings["total"] = sum(timings.values())
    return Statistics(
        settings=_settings(config, subgroups),
        models=models,
        baselines=matrix.models(mode, baselines=True),
        axes=AXES,
        ranked_axes=tested,
        platform_axes=PLATFORM_AXES,
        multiplicity=multiplicity_record(
            across_axes=config.holm_across_axes,
            alpha=config.alpha,
            confidence=config.confidence,
            tested_axes=tested,
            n_models=len(models),
        ),
        estimates=estimates,
        pairs=pairs,
        discriminability=discrimination,
        rank_correlations=correlations,
        concordance=agreement_of_axes,
        subgroups=subgroup_results,
        mode_deltas=deltas,
        agreement=agreement,
        parse_failures=failures,
        reply_agreement=with_participants,
        timings=timings,
    )


def _settings(config: StatsConfig, subgroups: tuple[SubgroupSpec, ...]) -> dict[str, Any]:
    """The config and the methods, recorded in the output (with the seed, they reproduce it)."""
    settings = asdict(config)
    settings["subgroups"] = [asdict(spec) for spec in subgroups]
    settings["mode_deltas"] = [list(pair) for pair in config.mode_deltas]
    settings["streams"] = dict(STREAMS)
    compared_axes = independence_axes(config.rank_outcome)
    settings["methods"] = {
        "unit": "conversation",
        "interval": "BCa bootstrap (bias-corrected and accelerated; jackknife acceleration)",
        "pair_test": "paired bootstrap over shared conversations, two-sided, null-centred; "
        + (
            "Holm-adjusted over every axis-pair test (across the axes)"
            if config.holm_across_axes
            else "Holm-adjusted per axis (not across the axes)"
        ),
        "rank_interval": "central interval of the bootstrap ranks (lower rounds down, upper up)",
        "rank_independence": "Kendall's tau-b per pair of axes, permutation p-value; Kendall's W "
        f"over {', '.join(compared_axes)}, chi-square and permutation p-values",
        "axes": f"ranked and tested: {', '.join(tested_axes(config.rank_outcome))}; "
        f"{', '.join(PLATFORM_AXES)} is this platform's addition to the paper's four axes"
        + (
            ", ranked and tested here because the run asked (rank_outcome)"
            if config.rank_outcome
            else ", reported beside them (mean, interval, subgroups, mode deltas), not ranked "
            "or tested"
        ),
        "subgroups": "level minus reference of the per-conversation mean over models; "
        "cluster bootstrap over participants (all of a participant's conversations drawn "
        "together; stratified by level where each participant has one level); BCa interval; "
        "two-sided null-centred cluster-bootstrap p-value, Holm over the subgroup comparisons "
        "of each axis; small = fewer participants than min_group_size on a side",
        "mode_deltas": "paired bootstrap over the conversations shared by both modes; BCa",
        "agreement": "Cohen's kappa and percent agreement; BCa bootstrap over conversations",
        "reply_agreement": "judges vs the participant on the behaviour questions about the "
        "original reply (participant: observed) and the participant's edited reply "
        "(participant: preferred, else observed), per question category; Cohen's kappa with a "
        "BCa bootstrap over conversations, accuracy, and each direction of disagreement",
    }
    return settings
