"""Typed, JSON-ready results of the statistics (floats are plain floats; undefined is None)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np


def number(value: Any) -> float | None:
    """A plain float, or None for NaN/inf/None (JSON has no NaN)."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


@dataclass(frozen=True)
class AxisEstimate:
    """Mean of one model on one axis in one mode, with its BCa interval and rank interval."""

    model: str
    mode: str
    axis: str
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    n: int  # conversations with a defined score
    baseline: bool
    # Ranks (1 = best) among the non-baseline models of the primary mode; None otherwise.
    rank: int | None = None
    rank_low: int | None = None
    rank_high: int | None = None


@dataclass(frozen=True)
class PairTest:
    """Paired bootstrap test of model_a - model_b on the conversations both were scored on."""

    axis: str
    model_a: str
    model_b: str
    n_shared: int
    difference: float | None
    ci_low: float | None
    ci_high: float | None
    p_value: float | None
    p_holm: float | None  # Holm-adjusted within the axis
    distinguished: bool  # the adjusted p-value the run chose (settings "holm_across_axes") < alpha
    p_holm_across_axes: float | None = None  # Holm over every axis-pair test of the report


@dataclass(frozen=True)
class Discriminability:
    axis: str
    n_models: int
    n_pairs: int
    n_distinguished: int
    share_distinguished: float | None
    between_model_variance: float | None  # variance of the model means (ddof 1)
    within_model_variance: float | None  # pooled variance of conversations within a model
    variance_ratio: float | None  # between / within
    f_statistic: float | None  # one-way ANOVA F (about 1 when models do not differ)


@dataclass(frozen=True)
class RankCorrelation:
    axis_a: str
    axis_b: str
    n_models: int
    tau: float | None  # Kendall's tau-b of the two rankings
    p_value: float | None  # two-sided permutation p-value
    exact: bool  # every permutation enumerated (else Monte Carlo)


@dataclass(frozen=True)
class Concordance:
    """Kendall's W of the model rankings across the axes (1 = every axis ranks alike)."""

    axes: tuple[str, ...]
    n_models: int
    w: float | None
    chi_square: float | None
    chi_square_p_value: float | None
    p_value: float | None  # permutation (each axis' ranking shuffled independently)


@dataclass(frozen=True)
class SubgroupDifference:
    """Mean of one level minus its reference, per conversation pooled over the models."""

    grouping: str
    level: str
    reference: str  # a level's name, or "rest" (all other conversations with a value)
    axis: str
    mean_level: float | None
    mean_reference: float | None
    difference: float | None
    ci_low: float | None
    ci_high: float | None
    n_level: int
    n_reference: int
    small: bool  # a side has fewer participants than the configured minimum
    # The resampled units: participants (each conversation its own without participant ids).
    n_level_participants: int = 0
    n_reference_participants: int = 0
    p_value: float | None = None  # two-sided cluster-bootstrap p-value of "no difference"
    p_holm: float | None = None  # Holm over every subgroup comparison of the axis


@dataclass(frozen=True)
class ModeDelta:
    model: str
    axis: str
    mode: str
    base_mode: str
    n_shared: int
    difference: float | None  # mode - base_mode on the shared conversations
    ci_low: float | None
    ci_high: float | None
    p_value: float | None


@dataclass(frozen=True)
class Agreement:
    """Agreement of two raters' yes/no answers on the items both answered."""

    rater_a: str
    rater_b: str
    n_items: int
    n_conversations: int
    percent_agreement: float | None
    kappa: float | None  # Cohen's kappa
    kappa_ci_low: float | None
    kappa_ci_high: float | None


@dataclass(frozen=True)
class ReplyAgreement:
    """Two raters' yes/no behaviour answers about the same replies (judge-vs-participant when
    ``rater_a`` is the participant, judge-judge otherwise), for one judged reply and one
    question category (``"all"`` pools the categories)."""

    reply: str  # "original" (the model's real reply) or "human_edited" (the participant's edit)
    category: str
    rater_a: str
    rater_b: str
    n_items: int
    n_conversations: int
    accuracy: float | None  # share of items where the two answers are equal
    kappa: float | None
    kappa_ci_low: float | None
    kappa_ci_high: float | None
    b_yes_where_a_no: float | None  # e.g. "judge yes where the participant said no"
    b_no_where_a_yes: float | None  # and the reverse


@dataclass(frozen=True)
class ParseFailureRate:
    model: str
    mode: str
    call_type: str
    calls: int
    failures: int
    rate: float | None


@dataclass(frozen=True)
class Statistics:
    """Everything ``compute_statistics`` found, plus the settings and seed that reproduce it."""

    settings: dict[str, Any]
    models: tuple[str, ...]  # non-baseline models of the primary mode, sorted
    baselines: tuple[str, ...]
    axes: tuple[str, ...]
    estimates: tuple[AxisEstimate, ...]
    pairs: tuple[PairTest, ...]
    discriminability: tuple[Discriminability, ...]
    rank_correlations: tuple[RankCorrelation, ...]
    concordance: Concordance | None
    subgroups: tuple[SubgroupDifference, ...]
    mode_deltas: tuple[ModeDelta, ...]
    agreement: tuple[Agreement, ...]
    parse_failures: tuple[ParseFailureRate, ...]
    reply_agreement: tuple[ReplyAgreement, ...] = ()
    # The axes with rank intervals and pair tests (the paper's four and the composite by
    # default), and the axes that are this platform's addition to the paper's (labelled so).
    ranked_axes: tuple[str, ...] = ()
    platform_axes: tuple[str, ...] = ()
    # What is and is not corrected for multiple comparisons, in words and counts (``multiple``).
    multiplicity: dict[str, Any] = field(default_factory=dict)
    # Seconds per part; not part of the result (left out of ``to_dict``, which must reproduce).
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values (``json.dumps(..., allow_nan=False)`` accepts it), no timings."""
        data: dict[str, Any] = _plain(dataclasses.asdict(self))
        del data["timings"]
        return data


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int | np.integer):
        return int(value)
    return number(value)
