"""Behaviour questions (section 3 applicability, section 4 accuracy + edge rules, section 5)
and their confusion counts."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from attunebench.records import BinaryJudgement
from attunebench.scoring.options import ScoringOptions

BehaviourTarget = Literal["om", "human"]
CONFUSION_KEYS = ("om", "human", "om_hp", "human_hp")


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
            "tp": self.tp,
            "tn": self.tn,
            "fp": self.fp,
            "fn": self.fn,
            "n": self.n,
            "accuracy": self.accuracy,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "mcc": self.mcc,
        }
