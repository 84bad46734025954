"""Text answers (section 4): Q1 set F1, Q2/Q3 exact match, the follow-up fuzzy set F1."""

from __future__ import annotations

from collections.abc import Iterable

from attunebench.scoring.common import _optimal_pairs

FUZZY_MATCH_THRESHOLD = 0.3


def _normalise_choice(text: str) -> str:
    """Case- and whitespace-insensitive form of an answer option or free-text item."""
    return " ".join(text.split()).casefold()


def _choice_set(items: Iterable[str] | None) -> set[str]:
    return {_normalise_choice(item) for item in items or () if item and item.strip()}


def set_f1(true_items: Iterable[str] | None, pred_items: Iterable[str] | None) -> float:
    """Section 4 Q1 set F1 (case/whitespace-insensitive); both empty -> 1, one empty -> 0."""
    true_set, pred_set = _choice_set(true_items), _choice_set(pred_items)
    if not true_set and not pred_set:
        return 1.0
    if not true_set or not pred_set:
        return 0.0
    return 2 * len(true_set & pred_set) / (len(true_set) + len(pred_set))


def exact_match(truth: str | None, prediction: str | None) -> float | None:
    """Section 4 Q2/Q3 exact match (case/whitespace-insensitive).

    None (not scored) when the participant left the question blank; a missing prediction
    against an answered question scores 0.
    """
    if truth is None or not truth.strip():
        return None
    if prediction is None:
        return 0.0
    return float(_normalise_choice(truth) == _normalise_choice(prediction))


def token_jaccard(first: str, second: str) -> float:
    """Edge rule: |A and B| / |A or B| over lowercase whitespace-separated tokens."""
    a, b = set(first.lower().split()), set(second.lower().split())
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def fuzzy_match_credit(truth: str, prediction: str) -> float:
    """Edge rule: an exact match earns 1; a near match earns its Jaccard when >= 0.3."""
    if _normalise_choice(truth) == _normalise_choice(prediction):
        return 1.0
    jaccard = token_jaccard(truth, prediction)
    return jaccard if jaccard >= FUZZY_MATCH_THRESHOLD else 0.0


def fuzzy_set_f1(true_items: Iterable[str] | None, pred_items: Iterable[str] | None) -> float:
    """Section 4 follow-up fuzzy set F1 (Q3 "what felt off").

    Items are paired one-to-one by an optimal assignment maximising the total credit
    (``fuzzy_match_credit``); with C = that total, precision = C / n_pred, recall = C / n_true
    and F1 = 2C / (n_true + n_pred). Blank items are ignored and duplicates (after lowercasing
    and collapsing whitespace) count once. Both empty -> 1, one empty -> 0.
    """
    truths, predictions = sorted(_choice_set(true_items)), sorted(_choice_set(pred_items))
    if not truths and not predictions:
        return 1.0
    if not truths or not predictions:
        return 0.0
    credit = float(_optimal_pairs(truths, predictions, fuzzy_match_credit).sum())
    return 2 * credit / (len(truths) + len(predictions))
