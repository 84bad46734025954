"""Post-conversation PANAS (section 4 + edge rules, section 5 derived totals)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from attunebench.records import Panas
from attunebench.run_output import PostConversationOutput, PredictedPanas
from attunebench.scoring.common import _as_float, _clamp, _mean
from attunebench.vocabulary import (
    INTENSITY_MAX,
    INTENSITY_MIN,
    PANAS_ITEMS,
    PANAS_NEGATIVE,
    PANAS_POSITIVE,
    PANAS_TOTAL_MAX,
    PANAS_TOTAL_MIN,
    canonical_panas_item,
)

PANAS_MIDPOINT = 40.0  # a missing predicted total counts as this in the plain MAE
PANAS_RANGE = 60.0  # 70 - 10
DELTA_STRATEGIES = ("delta", "blind_delta")


def panas_adjusted_score(pre: float, post: float, predicted: float | None) -> float | None:
    """Section 4 PANAS baseline-adjusted score of one total (PA or NA).

    naive = max(0, 1 - |post - pre| / 60) (the "no change" guess), raw = max(0, 1 - |post -
    pred| / 60), adjusted = (raw - naive) / (1 - naive) clipped to [-1, 1]. Undefined (None)
    when post == pre (naive = 1) or when the predicted total is missing (edge rules).
    """
    if predicted is None or post == pre:
        return None
    naive = max(0.0, 1 - abs(post - pre) / PANAS_RANGE)
    raw = max(0.0, 1 - abs(post - predicted) / PANAS_RANGE)
    return _clamp((raw - naive) / (1 - naive), -1.0, 1.0)


def _canonical_items(items: Mapping[str, float] | None) -> dict[str, float]:
    canonical: dict[str, float] = {}
    for name, value in (items or {}).items():
        item, number = canonical_panas_item(name), _as_float(value)
        if item is not None and number is not None and item not in canonical:
            canonical[item] = number
    return canonical


def _clamp_total(value: float) -> float:
    # Totals are clamped to the PANAS range, as the reference does for participant totals.
    return _clamp(value, PANAS_TOTAL_MIN, PANAS_TOTAL_MAX)


def _absolute_total(
    total: float | None, items: dict[str, float], names: tuple[str, ...]
) -> float | None:
    """Given total, else (section 5) the sum of the predicted items of that polarity."""
    given = _as_float(total)
    if given is not None:
        return _clamp_total(given)
    present = [items[name] for name in names if name in items]
    return _clamp_total(sum(present)) if present else None


def _delta_total(
    pre_total: float, change: float | None, deltas: dict[str, float], names: tuple[str, ...]
) -> float | None:
    """pre total + predicted change; the change is the given total change, else the sum of the
    item changes of that polarity (an item without a change is unchanged); None if neither."""
    given = _as_float(change)
    if given is None:
        present = [deltas[name] for name in names if name in deltas]
        if not present:
            return None
        given = sum(present)
    return _clamp_total(pre_total + given)


def resolve_predicted_post_panas(
    prediction: PostConversationOutput | None, pre: Panas | None
) -> PredictedPanas | None:
    """The EM's predicted post-PANAS as absolute values (section 3 strategies, section 5).

    - ``absolute`` (or no strategy): ``predicted_post_panas`` as given; a missing total is
      derived from the predicted items (never a fixed midpoint).
    - ``delta`` / ``blind_delta``: ``predicted_panas_delta`` holds changes; post item =
      clamp(pre item + change, 1, 7) and post total = clamp(pre total + change, 10, 70), the
      total change being the given one or the sum of the item changes. Needs the participant's
      pre-PANAS (blind_delta only hides it from the EM). When a delta run has no
      ``predicted_panas_delta``, ``predicted_post_panas`` is read as absolute values.
    Totals are clamped to 10..70 like the participant's. None when nothing was predicted.
    """
    if prediction is None:
        return None
    strategy = (prediction.panas_strategy or "absolute").strip().lower()
    delta = prediction.predicted_panas_delta
    if strategy in DELTA_STRATEGIES and delta is not None:
        if pre is None:
            return None
        changes = _canonical_items(delta.items)
        items = {
            name: _clamp(pre.items[name] + changes.get(name, 0.0), INTENSITY_MIN, INTENSITY_MAX)
            for name in PANAS_ITEMS
            if name in pre.items
        }
        return PredictedPanas(
            total_positive=_delta_total(
                pre.total_positive, delta.total_positive, changes, PANAS_POSITIVE
            ),
            total_negative=_delta_total(
                pre.total_negative, delta.total_negative, changes, PANAS_NEGATIVE
            ),
            items=items,
        )
    absolute = prediction.predicted_post_panas
    if absolute is None:
        return None
    items = _canonical_items(absolute.items)
    return PredictedPanas(
        total_positive=_absolute_total(absolute.total_positive, items, PANAS_POSITIVE),
        total_negative=_absolute_total(absolute.total_negative, items, PANAS_NEGATIVE),
        items=items,
    )


@dataclass(frozen=True)
class PanasScores:
    predicted_positive: float | None
    predicted_negative: float | None
    positive_adjusted: float | None
    negative_adjusted: float | None
    adjusted: float | None  # mean of the defined per-total adjusted scores
    score: float  # (adjusted + 1) / 2, or 0.5 when undefined
    mae: float | None  # plain MAE over both totals; a missing prediction counts as 40


def score_panas(
    pre: Panas | None, post: Panas | None, prediction: PostConversationOutput | None
) -> PanasScores:
    """Section 4 PANAS: baseline-adjusted score per total, their mean, PANASscore and MAE."""
    resolved = resolve_predicted_post_panas(prediction, pre)
    predicted_pa = resolved.total_positive if resolved else None
    predicted_na = resolved.total_negative if resolved else None
    pa_adjusted = na_adjusted = mae = None
    if post is not None and pre is not None:
        pa_adjusted = panas_adjusted_score(pre.total_positive, post.total_positive, predicted_pa)
        na_adjusted = panas_adjusted_score(pre.total_negative, post.total_negative, predicted_na)
    if post is not None:
        mae = (
            abs(post.total_positive - (PANAS_MIDPOINT if predicted_pa is None else predicted_pa))
            + abs(post.total_negative - (PANAS_MIDPOINT if predicted_na is None else predicted_na))
        ) / 2
    adjusted = _mean([pa_adjusted, na_adjusted])
    return PanasScores(
        predicted_positive=predicted_pa,
        predicted_negative=predicted_na,
        positive_adjusted=pa_adjusted,
        negative_adjusted=na_adjusted,
        adjusted=adjusted,
        score=0.5 if adjusted is None else (adjusted + 1) / 2,
        mae=mae,
    )
