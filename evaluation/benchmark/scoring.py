"""Pure AttuneBench scoring: per turn, per conversation, per model and mode.

Implements section 4 of ``/work/shared/attunebench-format.md`` (formulas and "Edge rules")
with the section 5 decisions. Each function's docstring names the rule it implements.
Everything here is pure: typed records in, frozen score records out; no Django, no I/O.

Conventions:
- A metric that is undefined is ``None`` (never NaN) so JSON stays strict; means skip it.
- "Missing" EM answers are scored as the reference scores them (section 5): they are not
  excused, but the run's parse-failure counts travel with the scores so format failures are
  visible next to the EI numbers.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment

from evaluation.benchmark.records import (
    BinaryJudgement,
    Conversation,
    ConversationWide,
    FourBranchScores,
    MoodTag,
    PairwiseComparison,
    Panas,
    Turn,
)
from evaluation.benchmark.run_output import (
    DraftJudgeScores,
    PostConversationOutput,
    PredictedPanas,
    RunOutput,
    TurnOutput,
)
from evaluation.benchmark.vocabulary import (
    INTENSITY_MAX,
    INTENSITY_MIN,
    PANAS_ITEMS,
    PANAS_NEGATIVE,
    PANAS_POSITIVE,
    PANAS_TOTAL_MAX,
    PANAS_TOTAL_MIN,
    PANAS_VALENCE_AROUSAL,
    canonical_panas_item,
)

BehaviourTarget = Literal["om", "human"]
TagLike = MoodTag | str

PANAS_MIDPOINT = 40.0  # a missing predicted total counts as this in the plain MAE
PANAS_RANGE = 60.0  # 70 - 10
FOUR_BRANCH_DEFAULT = 4.0  # a missing four-branch prediction counts as the scale midpoint
FUZZY_MATCH_THRESHOLD = 0.3
DELTA_STRATEGIES = ("delta", "blind_delta")
CONFUSION_KEYS = ("om", "human", "om_hp", "human_hp")

# Per-conversation metrics that are averaged per model and mode (section 6 names first).
METRIC_NAMES: tuple[str, ...] = (
    "avg_emotion_f1", "avg_emotion_va_score", "avg_binary_om_accuracy",
    "avg_binary_human_accuracy", "avg_binary_om_accuracy_hp", "avg_binary_human_accuracy_hp",
    "perspective_gap", "avg_pairwise_accuracy", "avg_draft_judge_score",
    "panas_score", "panas_adjusted", "panas_positive_adjusted", "panas_negative_adjusted",
    "panas_mae", "q1_f1", "q2_match", "q3_match", "followup_f1", "four_branch_score",
    "emotion_tracking", "evaluation_quality", "holistic_comprehension", "composite_score",
    "emotion_recognition", "behaviour_classification", "preference_prediction",
    "judged_response_quality", "outcome_prediction",
)  # fmt: skip


@dataclass(frozen=True)
class ScoringOptions:
    """How to score; the defaults reproduce the reference (section 4) with our section 5 rules.

    - ``compat``: also where section 5 departs from the reference, do as the reference does:
      a turn whose judgements are all ``na``/blank scores 0 for behaviour accuracy (1.0 by
      default), and each VA pair similarity is rounded to 4 decimals (the reference's port).
    - ``asked_only``: a named variant, never the default: behaviour accuracy counts only the
      judgements that were applicable (asked, section 3) at the turn. The reference scores
      every judgement whose ground truth is yes/no, asked or not (section 4), so this variant
      is reported beside the default scores, never instead of them.
    """

    compat: bool = False
    asked_only: bool = False

    def as_dict(self) -> dict[str, bool]:
        return {"compat": self.compat, "asked_only": self.asked_only}


VA_COMPAT_DECIMALS = 4  # the reference's port rounds each pair similarity to this


# --- small helpers ----------------------------------------------------------------------------


def _mean(values: Iterable[float | None]) -> float | None:
    """Mean of the defined values; None when there are none."""
    defined = [value for value in values if value is not None]
    return sum(defined) / len(defined) if defined else None


def _clamp(value: float, low: float, high: float) -> float:
    return min(high, max(low, value))


def _normalise_choice(text: str) -> str:
    """Case- and whitespace-insensitive form of an answer option or free-text item."""
    return " ".join(text.split()).casefold()


def _choice_set(items: Iterable[str] | None) -> set[str]:
    return {_normalise_choice(item) for item in items or () if item and item.strip()}


def _as_float(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


# --- emotion (section 4: Emotion F1, Emotion VA) ----------------------------------------------


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


def _optimal_pairs(
    truths: Sequence[str],
    predictions: Sequence[str],
    score: Callable[[str, str], float],
    decimals: int | None = None,
) -> np.ndarray:
    """The scores of the one-to-one pairing of truths and predictions with the largest total.

    Section 5: an optimal assignment (``scipy.optimize.linear_sum_assignment``), never a greedy
    one; the shorter side is matched in full, the rest of the longer side stays unpaired.
    ``decimals`` rounds each pair's score first (the reference port's VA rounding).
    """
    matrix = np.array([[score(t, p) for p in predictions] for t in truths])
    if decimals is not None:
        matrix = np.round(matrix, decimals)
    rows, cols = linear_sum_assignment(matrix, maximize=True)
    return matrix[rows, cols]


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


# --- behaviour (section 3 applicability, section 4 accuracy + edge rules, section 5) -----------


def _answer(value: Any) -> str | None:
    return value.strip().lower() if isinstance(value, str) else None


def is_applicable(judgement: BinaryJudgement) -> bool:
    """Section 3: applicable when the participant left both answers blank or gave yes/no to
    at least one; a question answered only ``na`` (na/na or na/blank) is not applicable."""
    answers = (_answer(judgement.observed), _answer(judgement.preferred))
    if any(answer in ("yes", "no") for answer in answers):
        return True
    return all(answer is None for answer in answers)


def om_ground_truth(judgement: BinaryJudgement) -> str | None:
    """Section 4: OM ground truth is ``observedBehavior``, falling back to ``llmValue`` only
    when observed is blank (an ``na`` observation is not scored, as for preferences)."""
    observed = _answer(judgement.observed)
    return _answer(judgement.llm_value) if observed is None else observed


def human_ground_truth(judgement: BinaryJudgement) -> str | None:
    """Section 4 edge rule: ``preferredBehavior``, falling back to ``observedBehavior`` only
    when preferred is None; an ``na`` preference stays ``na`` and is therefore not scored."""
    preferred = _answer(judgement.preferred)
    return _answer(judgement.observed) if preferred is None else preferred


_GROUND_TRUTH = {"om": om_ground_truth, "human": human_ground_truth}


def predicted_answer(predictions: Mapping[str, Any] | None, question_id: str) -> str:
    """Section 4: a missing or ``na`` prediction counts as "no" (so does anything unreadable)."""
    value = (predictions or {}).get(question_id)
    return "yes" if _answer(value) == "yes" else "no"


def behaviour_pairs(
    judgements: Sequence[BinaryJudgement],
    predictions: Mapping[str, Any] | None,
    target: BehaviourTarget,
    options: ScoringOptions | None = None,
) -> list[tuple[str, str]]:
    """(truth, prediction) for every judgement whose ground truth, after the fallbacks, is
    yes/no: section 4 scores it whether or not the question was asked at the turn (a question
    that was not asked has no prediction, which counts as "no"). Only the named
    ``asked_only`` option keeps section 3's applicable questions alone."""
    asked_only = options is not None and options.asked_only
    ground_truth = _GROUND_TRUTH[target]
    pairs = []
    for judgement in judgements:
        truth = ground_truth(judgement)
        if truth in ("yes", "no") and (not asked_only or is_applicable(judgement)):
            pairs.append((truth, predicted_answer(predictions, judgement.question_id)))
    return pairs


def behaviour_accuracy(
    judgements: Sequence[BinaryJudgement],
    predictions: Mapping[str, Any] | None,
    target: BehaviourTarget,
    options: ScoringOptions | None = None,
) -> float:
    """Section 4 behaviour accuracy of one turn for ``target`` "om" or "human".

    Share of scored questions (ground truth yes/no after the fallbacks; under ``asked_only``
    also applicable) the EM got right.
    No judgements at all -> 1.0 (section 4). Judgements present but none scorable (all na or
    blank) -> 1.0 by our section 5 decision, 0.0 under ``ScoringOptions(compat=True)``.
    """
    options = options or ScoringOptions()
    if not judgements:
        return 1.0
    pairs = behaviour_pairs(judgements, predictions, target, options)
    if not pairs:
        return 0.0 if options.compat else 1.0
    return sum(truth == prediction for truth, prediction in pairs) / len(pairs)


@dataclass(frozen=True)
class ConfusionCounts:
    """Section 4 pooled confusion counts, "yes" being the positive class."""

    tp: int = 0
    tn: int = 0
    fp: int = 0
    fn: int = 0

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[str, str]]) -> ConfusionCounts:
        counts = {"tp": 0, "tn": 0, "fp": 0, "fn": 0}
        for truth, prediction in pairs:
            key = ("t" if truth == prediction else "f") + ("p" if prediction == "yes" else "n")
            counts[key] += 1
        return cls(**counts)

    def __add__(self, other: ConfusionCounts) -> ConfusionCounts:
        return ConfusionCounts(
            self.tp + other.tp, self.tn + other.tn, self.fp + other.fp, self.fn + other.fn
        )

    @property
    def n(self) -> int:
        return self.tp + self.tn + self.fp + self.fn

    @property
    def accuracy(self) -> float | None:
        return (self.tp + self.tn) / self.n if self.n else None

    @property
    def precision(self) -> float | None:
        predicted_yes = self.tp + self.fp
        return self.tp / predicted_yes if predicted_yes else None

    @property
    def recall(self) -> float | None:
        actual_yes = self.tp + self.fn
        return self.tp / actual_yes if actual_yes else None

    @property
    def f1(self) -> float | None:
        precision, recall = self.precision, self.recall
        if precision is None or recall is None:
            return None
        return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)

    @property
    def mcc(self) -> float | None:
        """Matthews correlation; 0 when a marginal is empty (the usual convention)."""
        if not self.n:
            return None
        denominator = math.sqrt(
            (self.tp + self.fp) * (self.tp + self.fn) * (self.tn + self.fp) * (self.tn + self.fn)
        )
        return 0.0 if denominator == 0 else (self.tp * self.tn - self.fp * self.fn) / denominator

    def to_dict(self) -> dict[str, Any]:
        return {
            "tp": self.tp, "tn": self.tn, "fp": self.fp, "fn": self.fn, "n": self.n,
            "accuracy": self.accuracy, "precision": self.precision, "recall": self.recall,
            "f1": self.f1, "mcc": self.mcc,
        }  # fmt: skip


# --- pairwise and draft (section 4) -----------------------------------------------------------


def _letter(value: Any) -> str | None:
    return value.strip().upper() if isinstance(value, str) else None


def pairwise_accuracy(
    comparisons: Sequence[PairwiseComparison], selections: Mapping[str, Any] | None
) -> float:
    """Section 4 pairwise accuracy of one turn.

    Share of comparisons where the EM's letter (``em_pairwise_selections[str(index)]``)
    equals the participant's winner. No comparisons -> 1.0. A comparison without a winner
    stays in the denominator and never matches (a missing EM answer never matches a missing
    winner). Letters are compared as written: the runner records them in the participant's
    A/B frame (``pairwise_assignment`` is informational).
    """
    if not comparisons:
        return 1.0
    selections = selections or {}
    hits = sum(
        comparison.winner is not None
        and _letter(selections.get(str(index))) == _letter(comparison.winner)
        for index, comparison in enumerate(comparisons)
    )
    return hits / len(comparisons)


def draft_quality(judge_scores: DraftJudgeScores | None) -> float | None:
    """Section 4 judged draft quality: (mean of the judge dimensions - 1) / 6.

    The mean runs over the dimensions present; None when no score is present (no judge).
    """
    if judge_scores is None:
        return None
    mean = _mean(_as_float(value) for value in judge_scores.dimensions())
    return None if mean is None else (mean - 1) / 6


# --- post-conversation (section 4 + edge rules, section 5 derived totals) ---------------------


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
    if _as_float(total) is not None:
        return _clamp_total(float(total))
    present = [items[name] for name in names if name in items]
    return _clamp_total(sum(present)) if present else None


def _delta_total(
    pre_total: float, change: float | None, deltas: dict[str, float], names: tuple[str, ...]
) -> float | None:
    """pre total + predicted change; the change is the given total change, else the sum of the
    item changes of that polarity (an item without a change is unchanged); None if neither."""
    if _as_float(change) is None:
        present = [deltas[name] for name in names if name in deltas]
        if not present:
            return None
        change = sum(present)
    return _clamp_total(pre_total + float(change))


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


def four_branch_score(
    truth: FourBranchScores | None, prediction: Mapping[str, Any] | None
) -> float:
    """Section 4 four-branch: 1 - MAE / 6 over the branches the participant rated.

    A missing (or non-numeric) prediction counts as 4; predictions are clamped to 1..7 so the
    score stays in [0, 1]. No branch rated -> 1 (edge rule).
    """
    rated = {
        name: value
        for name, value in (truth.as_dict() if truth else {}).items()
        if value is not None
    }
    if not rated:
        return 1.0
    predicted = {str(name).strip().lower(): value for name, value in (prediction or {}).items()}
    errors = []
    for name, value in rated.items():
        guess = _as_float(predicted.get(name))
        guess = (
            FOUR_BRANCH_DEFAULT if guess is None else _clamp(guess, INTENSITY_MIN, INTENSITY_MAX)
        )
        errors.append(abs(value - guess))
    return 1 - (sum(errors) / len(errors)) / 6


# --- per turn and per conversation ------------------------------------------------------------


@dataclass(frozen=True)
class TurnScores:
    turn_number: int
    emotion_f1: float
    emotion_va: float
    binary_om_accuracy: float
    binary_human_accuracy: float
    binary_om_accuracy_hp: float | None  # None when the run has no HP-worded review
    binary_human_accuracy_hp: float | None
    pairwise_accuracy: float
    draft_judge_score: float | None  # None when the draft was not judged
    n_pairwise: int
    confusion: dict[str, ConfusionCounts] = field(default_factory=dict)


def score_turn(
    turn: Turn, output: TurnOutput, options: ScoringOptions | None = None, *, score_hp: bool = True
) -> TurnScores:
    """All per-turn metrics of section 4 for one turn the EM output covers.

    ``score_hp`` is False when the run never made the HP-worded call (no turn carries its
    answers): then its metrics are None instead of an all-"no" score.
    """
    judgements = turn.annotations.binary_judgements
    comparisons = turn.annotations.pairwise_comparisons
    predictions = {
        "om": output.em_binary_om_assessment,
        "human": output.em_binary_human_prediction,
        "om_hp": output.em_binary_om_assessment_hp,
        "human_hp": output.em_binary_human_prediction_hp,
    }
    confusion = {
        key: ConfusionCounts.from_pairs(behaviour_pairs(judgements, answers, _target(key), options))
        for key, answers in predictions.items()
        if score_hp or not key.endswith("_hp")
    }

    def accuracy(key: str) -> float:
        return behaviour_accuracy(judgements, predictions[key], _target(key), options)

    return TurnScores(
        turn_number=turn.turn_number,
        emotion_f1=emotion_f1(turn.mood_tags, output.em_emotion_tags),
        emotion_va=emotion_va(turn.mood_tags, output.em_emotion_tags, options),
        binary_om_accuracy=accuracy("om"),
        binary_human_accuracy=accuracy("human"),
        binary_om_accuracy_hp=accuracy("om_hp") if score_hp else None,
        binary_human_accuracy_hp=accuracy("human_hp") if score_hp else None,
        pairwise_accuracy=pairwise_accuracy(comparisons, output.em_pairwise_selections),
        draft_judge_score=draft_quality(output.em_draft_judge_scores),
        n_pairwise=len(comparisons),
        confusion=confusion,
    )


def _target(key: str) -> BehaviourTarget:
    return "om" if key.startswith("om") else "human"


@dataclass(frozen=True)
class ConversationScores:
    """Scores of one conversation for one model and mode (section 6 metric names)."""

    conversation_id: str
    em_model: str | None
    mode: str | None
    n_turns: int
    n_turns_scored: int
    avg_emotion_f1: float | None
    avg_emotion_va_score: float | None
    avg_binary_om_accuracy: float | None
    avg_binary_human_accuracy: float | None
    avg_binary_om_accuracy_hp: float | None
    avg_binary_human_accuracy_hp: float | None
    perspective_gap: float | None
    avg_pairwise_accuracy: float | None
    avg_draft_judge_score: float | None
    panas_score: float
    panas_adjusted: float | None
    panas_positive_adjusted: float | None
    panas_negative_adjusted: float | None
    panas_mae: float | None
    predicted_positive_total: float | None
    predicted_negative_total: float | None
    q1_f1: float
    q2_match: float | None
    q3_match: float | None
    followup_f1: float
    four_branch_score: float
    emotion_tracking: float | None
    evaluation_quality: float | None
    holistic_comprehension: float
    composite_score: float
    emotion_recognition: float | None
    behaviour_classification: float | None
    preference_prediction: float | None
    judged_response_quality: float | None
    outcome_prediction: float
    panas_strategy: str | None = None
    confusion: dict[str, ConfusionCounts] = field(default_factory=dict)
    turns: tuple[TurnScores, ...] = ()
    parse_failures: dict[str, dict[str, int]] = field(default_factory=dict)

    def metric_values(self) -> dict[str, float | None]:
        return {name: getattr(self, name) for name in METRIC_NAMES}


def _outputs_by_turn(run: RunOutput) -> dict[int, TurnOutput]:
    outputs: dict[int, TurnOutput] = {}
    for output in run.turns:
        if output.turn_number is not None and output.turn_number not in outputs:
            outputs[output.turn_number] = output  # the first record of a turn wins
    return outputs


def _run_has_hp_review(outputs: Iterable[TurnOutput]) -> bool:
    return any(
        o.em_binary_om_assessment_hp is not None or o.em_binary_human_prediction_hp is not None
        for o in outputs
    )


def composite(
    emotion_tracking: float | None, evaluation_quality: float | None, holistic: float
) -> float:
    """Section 4 composite: 100 x (0.24 ET + 0.49 EQ + 0.27 HC), rounded to 2 decimals.

    A pillar with nothing scored (no turn of the conversation in the run) counts 0.
    """
    value = 100 * (
        0.24 * (emotion_tracking or 0.0) + 0.49 * (evaluation_quality or 0.0) + 0.27 * holistic
    )
    return round(value, 2)


def score_conversation(
    conversation: Conversation, run: RunOutput, options: ScoringOptions | None = None
) -> ConversationScores:
    """Score one run output against its conversation (section 4, per conversation).

    Turns the run output lacks are skipped: per-turn means run over scored turns (edge rule).
    EmotionTracking = 0.5 mean F1 + 0.5 mean VA; EvaluationQuality = 0.5 x (mean OM accuracy +
    mean human accuracy) / 2 + 0.5 x mean pairwise accuracy; HolisticComprehension = 0.4
    PANASscore + 0.3 mean(Q1, Q2, Q3, follow-up over the defined ones) + 0.3 four-branch.
    """
    options = options or ScoringOptions()
    if run.conversation_id is not None and run.conversation_id != conversation.conversation_id:
        raise ValueError(
            f"run output is for conversation {run.conversation_id!r}, not {conversation.conversation_id!r}"
        )
    outputs = _outputs_by_turn(run)
    score_hp = _run_has_hp_review(outputs.values())
    turns = tuple(
        score_turn(turn, outputs[turn.turn_number], options, score_hp=score_hp)
        for turn in conversation.turns
        if turn.turn_number in outputs
    )

    def turn_mean(name: str) -> float | None:
        return _mean(getattr(turn, name) for turn in turns)

    f1, va = turn_mean("emotion_f1"), turn_mean("emotion_va")
    om, human = turn_mean("binary_om_accuracy"), turn_mean("binary_human_accuracy")
    om_hp, human_hp = turn_mean("binary_om_accuracy_hp"), turn_mean("binary_human_accuracy_hp")
    pairwise = turn_mean("pairwise_accuracy")

    post = run.post_conversation
    predicted_cw = post.predicted_conversation_wide if post else None
    truth_cw = conversation.conversation_wide or ConversationWide()
    panas = score_panas(conversation.pre_panas, conversation.post_panas, post)
    q1 = set_f1(truth_cw.looking_for, predicted_cw.q1_looking_for if predicted_cw else None)
    q2 = exact_match(
        truth_cw.emotion_clarity, predicted_cw.q2_emotion_clarity if predicted_cw else None
    )
    q3 = exact_match(truth_cw.model_fit, predicted_cw.q3_model_fit if predicted_cw else None)
    followup = fuzzy_set_f1(
        truth_cw.what_felt_off, predicted_cw.q3_follow_up_what_felt_off if predicted_cw else None
    )
    branches = four_branch_score(
        truth_cw.four_branch, predicted_cw.four_branch_scores if predicted_cw else None
    )

    emotion_tracking = None if f1 is None or va is None else 0.5 * f1 + 0.5 * va
    evaluation_quality = (
        None
        if om is None or human is None or pairwise is None
        else 0.5 * (om + human) / 2 + 0.5 * pairwise
    )
    questions_mean = _mean([q1, q2, q3, followup])  # q1 and follow-up are always defined
    holistic = 0.4 * panas.score + 0.3 * (questions_mean or 0.0) + 0.3 * branches

    confusion = {
        key: ConfusionCounts() for key in CONFUSION_KEYS if score_hp or not key.endswith("_hp")
    }
    for turn in turns:
        for key, counts in turn.confusion.items():
            confusion[key] = confusion[key] + counts

    return ConversationScores(
        conversation_id=conversation.conversation_id,
        em_model=run.em_model,
        mode=run.mode,
        n_turns=len(conversation.turns),
        n_turns_scored=len(turns),
        avg_emotion_f1=f1,
        avg_emotion_va_score=va,
        avg_binary_om_accuracy=om,
        avg_binary_human_accuracy=human,
        avg_binary_om_accuracy_hp=om_hp,
        avg_binary_human_accuracy_hp=human_hp,
        perspective_gap=None if human is None or human_hp is None else human - human_hp,
        avg_pairwise_accuracy=pairwise,
        avg_draft_judge_score=turn_mean("draft_judge_score"),
        panas_score=panas.score,
        panas_adjusted=panas.adjusted,
        panas_positive_adjusted=panas.positive_adjusted,
        panas_negative_adjusted=panas.negative_adjusted,
        panas_mae=panas.mae,
        predicted_positive_total=panas.predicted_positive,
        predicted_negative_total=panas.predicted_negative,
        q1_f1=q1,
        q2_match=q2,
        q3_match=q3,
        followup_f1=followup,
        four_branch_score=branches,
        emotion_tracking=emotion_tracking,
        evaluation_quality=evaluation_quality,
        holistic_comprehension=holistic,
        composite_score=composite(emotion_tracking, evaluation_quality, holistic),
        emotion_recognition=emotion_tracking,
        behaviour_classification=om,
        preference_prediction=_mean([human, pairwise]),
        judged_response_quality=turn_mean("draft_judge_score"),
        outcome_prediction=holistic,
        panas_strategy=post.panas_strategy if post else None,
        confusion=confusion,
        turns=turns,
        parse_failures={call: dict(counts) for call, counts in run.parse_failures.items()},
    )


# --- per model and mode -----------------------------------------------------------------------


@dataclass(frozen=True)
class MetricSummary:
    mean: float | None
    standard_error: float | None  # sample sd / sqrt(n); None when n < 2
    n: int


def summarise(values: Iterable[float | None]) -> MetricSummary:
    """Edge rule: mean and standard error = sample sd / sqrt(n) over conversations (the
    defined values only); the standard error is None when fewer than 2 values."""
    defined = [value for value in values if value is not None]
    if not defined:
        return MetricSummary(mean=None, standard_error=None, n=0)
    mean = statistics.fmean(defined)
    error = statistics.stdev(defined) / math.sqrt(len(defined)) if len(defined) >= 2 else None
    return MetricSummary(mean=mean, standard_error=error, n=len(defined))


@dataclass(frozen=True)
class AggregateScores:
    em_model: str | None
    mode: str | None
    n_conversations: int
    n_turns_scored: int
    metrics: dict[str, MetricSummary]
    confusion: dict[str, ConfusionCounts]  # pooled over every turn of every conversation
    # per call type: {"calls": n, "failures": n, "rate": failures / calls or None}
    parse_failures: dict[str, dict[str, float | int | None]]


def aggregate(scores: Iterable[ConversationScores]) -> list[AggregateScores]:
    """Section 4 "mean over conversations per model and mode", with standard errors, pooled
    confusion counts and the section 5 parse-failure rate per call type."""
    groups: dict[tuple[str | None, str | None], list[ConversationScores]] = {}
    for score in scores:
        groups.setdefault((score.em_model, score.mode), []).append(score)
    return [
        _aggregate_group(model, mode, members)
        for (model, mode), members in sorted(
            groups.items(), key=lambda item: (item[0][0] or "", item[0][1] or "")
        )
    ]


def _aggregate_group(
    model: str | None, mode: str | None, members: list[ConversationScores]
) -> AggregateScores:
    confusion: dict[str, ConfusionCounts] = {}
    failures: dict[str, dict[str, int]] = {}
    for member in members:
        for key, counts in member.confusion.items():
            confusion[key] = confusion.get(key, ConfusionCounts()) + counts
        for call_type, counts in member.parse_failures.items():
            total = failures.setdefault(call_type, {"calls": 0, "failures": 0})
            total["calls"] += counts.get("calls", 0)
            total["failures"] += counts.get("failures", 0)
    return AggregateScores(
        em_model=model,
        mode=mode,
        n_conversations=len(members),
        n_turns_scored=sum(member.n_turns_scored for member in members),
        metrics={
            name: summarise(getattr(member, name) for member in members) for name in METRIC_NAMES
        },
        confusion={key: confusion[key] for key in CONFUSION_KEYS if key in confusion},
        parse_failures={
            call_type: {
                **counts,
                "rate": counts["failures"] / counts["calls"] if counts["calls"] else None,
            }
            for call_type, counts in sorted(failures.items())
        },
    )


# --- export -----------------------------------------------------------------------------------

_TURN_METRICS = (
    "emotion_f1", "emotion_va", "binary_om_accuracy", "binary_human_accuracy",
    "binary_om_accuracy_hp", "binary_human_accuracy_hp", "pairwise_accuracy", "draft_judge_score",
)  # fmt: skip


def turn_scores_to_dict(turn: TurnScores) -> dict[str, Any]:
    data: dict[str, Any] = {"turn_number": turn.turn_number}
    data.update({name: getattr(turn, name) for name in _TURN_METRICS})
    data["n_pairwise"] = turn.n_pairwise
    data["confusion"] = {key: counts.to_dict() for key, counts in turn.confusion.items()}
    return data


def conversation_scores_to_dict(scores: ConversationScores) -> dict[str, Any]:
    return {
        "conversationId": scores.conversation_id,
        "em_model": scores.em_model,
        "mode": scores.mode,
        "n_turns": scores.n_turns,
        "n_turns_scored": scores.n_turns_scored,
        **scores.metric_values(),
        "predicted_positive_total": scores.predicted_positive_total,
        "predicted_negative_total": scores.predicted_negative_total,
        "panas_strategy": scores.panas_strategy,
        "confusion": {key: counts.to_dict() for key, counts in scores.confusion.items()},
        "parse_failures": scores.parse_failures,
        "turns": [turn_scores_to_dict(turn) for turn in scores.turns],
    }


def aggregate_scores_to_dict(aggregate_scores: AggregateScores) -> dict[str, Any]:
    data: dict[str, Any] = {
        "em_model": aggregate_scores.em_model,
        "mode": aggregate_scores.mode,
        "n_conversations": aggregate_scores.n_conversations,
        "n_turns_scored": aggregate_scores.n_turns_scored,
    }
    for name, summary in aggregate_scores.metrics.items():
        data[name] = summary.mean
        data[f"{name}_se"] = summary.standard_error
        data[f"{name}_n"] = summary.n
    data["confusion"] = {
        key: counts.to_dict() for key, counts in aggregate_scores.confusion.items()
    }
    data["parse_failures"] = aggregate_scores.parse_failures
    return data


def scores_to_json(
    conversation_scores: Iterable[ConversationScores], aggregates: Iterable[AggregateScores]
) -> dict[str, Any]:
    """{"conversations": [...], "aggregates": [...]}: plain JSON values, undefined = null."""
    return {
        "conversations": [conversation_scores_to_dict(scores) for scores in conversation_scores],
        "aggregates": [aggregate_scores_to_dict(item) for item in aggregates],
    }


def _confusion_columns(
    confusion: Mapping[str, ConfusionCounts], with_rates: bool
) -> dict[str, Any]:
    columns: dict[str, Any] = {}
    for key in CONFUSION_KEYS:
        counts = confusion.get(key)
        values = counts.to_dict() if counts else {}
        names = ("tp", "tn", "fp", "fn") + (
            ("precision", "recall", "f1", "mcc") if with_rates else ()
        )
        for name in names:
            columns[f"{key}_{name}"] = values.get(name)
    return columns


_ID_COLUMNS = ("conversation_id", "em_model", "mode")
_TURN_FRAME_COLUMNS = (
    _ID_COLUMNS
    + ("turn_number",)
    + _TURN_METRICS
    + ("n_pairwise",)
    + tuple(f"{key}_{name}" for key in CONFUSION_KEYS for name in ("tp", "tn", "fp", "fn"))
)


def per_turn_frame(conversation_scores: Iterable[ConversationScores]) -> pd.DataFrame:
    """One row per scored turn, flat columns (tidy; ready for Parquet). Undefined = NaN."""
    rows = [
        {
            "conversation_id": scores.conversation_id,
            "em_model": scores.em_model,
            "mode": scores.mode,
            "turn_number": turn.turn_number,
            **{name: getattr(turn, name) for name in _TURN_METRICS},
            "n_pairwise": turn.n_pairwise,
            **_confusion_columns(turn.confusion, with_rates=False),
        }
        for scores in conversation_scores
        for turn in scores.turns
    ]
    frame = pd.DataFrame(rows, columns=list(_TURN_FRAME_COLUMNS))
    frame = frame.astype({name: "float64" for name in _TURN_METRICS})
    return frame.astype({name: "Int64" for name in _count_columns(frame.columns)})


def _count_columns(columns: Iterable[str]) -> list[str]:
    # Nullable integers: the HP-worded counts are missing when the run had no HP review.
    return [c for c in columns if c.endswith(("_tp", "_tn", "_fp", "_fn"))]


def per_conversation_frame(conversation_scores: Iterable[ConversationScores]) -> pd.DataFrame:
    """One row per (conversation, model, mode), flat columns (tidy; ready for Parquet).

    Metric columns are float64 (undefined = NaN); confusion counts and rates are flattened
    as ``<om|human|om_hp|human_hp>_<tp|...|mcc>``; parse failures as
    ``parse_<call type>_calls`` / ``parse_<call type>_failures``.
    """
    rows = []
    call_types: set[str] = set()
    for scores in conversation_scores:
        row = {
            "conversation_id": scores.conversation_id,
            "em_model": scores.em_model,
            "mode": scores.mode,
            "n_turns": scores.n_turns,
            "n_turns_scored": scores.n_turns_scored,
            "panas_strategy": scores.panas_strategy,
            **scores.metric_values(),
            "predicted_positive_total": scores.predicted_positive_total,
            "predicted_negative_total": scores.predicted_negative_total,
            **_confusion_columns(scores.confusion, with_rates=True),
        }
        for call_type, counts in scores.parse_failures.items():
            call_types.add(call_type)
            row[f"parse_{call_type}_calls"] = counts.get("calls", 0)
            row[f"parse_{call_type}_failures"] = counts.get("failures", 0)
        rows.append(row)
    float_columns = METRIC_NAMES + ("predicted_positive_total", "predicted_negative_total")
    columns = (
        list(_ID_COLUMNS)
        + ["n_turns", "n_turns_scored", "panas_strategy"]
        + list(float_columns)
        + list(_confusion_columns({}, with_rates=True))
        + [f"parse_{c}_{kind}" for c in sorted(call_types) for kind in ("calls", "failures")]
    )
    frame = pd.DataFrame(rows, columns=columns)
    rate_columns = [c for c in columns if c.endswith(("_precision", "_recall", "_f1", "_mcc"))]
    frame = frame.astype({name: "float64" for name in (*float_columns, *rate_columns)})
    frame = frame.astype({name: "Int64" for name in _count_columns(columns)})
    # A call type absent from one run means zero calls there, not "unknown".
    parse_columns = [c for c in columns if c.startswith("parse_")]
    frame[parse_columns] = frame[parse_columns].fillna(0).astype("int64")
    return frame
