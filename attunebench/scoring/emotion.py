"""Emotion metrics (section 4: Emotion F1, Emotion VA; section 5 optimal assignment)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from attunebench.records import MoodTag
from attunebench.scoring.common import _optimal_pairs
from attunebench.scoring.options import ScoringOptions
from attunebench.vocabulary import PANAS_VALENCE_AROUSAL, canonical_panas_item

TagLike = MoodTag | str

VA_COMPAT_DECIMALS = 4  # the reference's port rounds each pair similarity to this


def _emotion_names(tags: Iterable[TagLike] | None) -> list[str]:
    """Distinct lowercased emotion names, in first-seen order (tags are compared as sets)."""
    names: list[str] = []
    for tag in tags or ():
        name = (tag if isinstance(tag, str) else tag.emotion).strip().lower()
        if name and name not in names:
            names.append(name)
    return names


def emotion_f1(true_tags: Iterable[TagLike], pred_tags: Iterable[TagLike] | None) -> float:
    """Section 4 "Emotion F1": set F1 of predicted vs participant tags, case-insensitive.

    Both empty -> 1 (the EM correctly saw no shift); exactly one empty -> 0.
    Otherwise F1 = 2 |T and P| / (|T| + |P|) (the harmonic mean of precision and recall).
    """
    true_set, pred_set = set(_emotion_names(true_tags)), set(_emotion_names(pred_tags))
    if not true_set and not pred_set:
        return 1.0
    if not true_set or not pred_set:
        return 0.0
    return 2 * len(true_set & pred_set) / (len(true_set) + len(pred_set))


def va_similarity(first: str, second: str) -> float:
    """Section 2: similarity = 1 - euclidean distance / sqrt(2) in valence/arousal space.

    A name outside the PANAS vocabulary has no coordinates and so similarity 0 with anything.
    """
    a, b = canonical_panas_item(first), canonical_panas_item(second)
    if a is None or b is None:
        return 0.0
    (va, aa), (vb, ab) = PANAS_VALENCE_AROUSAL[a], PANAS_VALENCE_AROUSAL[b]
    return 1.0 - math.hypot(va - vb, aa - ab) / math.sqrt(2)


def emotion_va(
    true_tags: Iterable[TagLike],
    pred_tags: Iterable[TagLike] | None,
    options: ScoringOptions | None = None,
) -> float:
    """Section 4 "Emotion VA" with the section 5 optimal assignment.

    Predicted tags are matched one-to-one to true tags maximising total VA similarity
    (``scipy.optimize.linear_sum_assignment``); the score is the mean similarity of the
    matched pairs times coverage = min(n_true, n_pred) / max(n_true, n_pred).
    Both empty -> 1; exactly one empty -> 0. Under ``compat`` each pair similarity is rounded
    to 4 decimals before the matching and the mean, as the reference's port does.
    """
    decimals = VA_COMPAT_DECIMALS if options is not None and options.compat else None
    true_names, pred_names = _emotion_names(true_tags), _emotion_names(pred_tags)
    if not true_names and not pred_names:
        return 1.0
    if not true_names or not pred_names:
        return 0.0
    matched = _optimal_pairs(true_names, pred_names, va_similarity, decimals)
    matched_mean = float(matched.mean())
    coverage = min(len(true_names), len(pred_names)) / max(len(true_names), len(pred_names))
    return matched_mean * coverage
