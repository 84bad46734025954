"""Every per-turn metric of one turn the EM output covers (section 4)."""

from __future__ import annotations

from dataclasses import dataclass, field

from attunebench.records import Turn
from attunebench.run_output import TurnOutput
from attunebench.scoring.behaviour import (
    BehaviourTarget,
    ConfusionCounts,
    behaviour_accuracy,
    behaviour_pairs,
)
from attunebench.scoring.emotion import emotion_f1, emotion_va
from attunebench.scoring.options import ScoringOptions
from attunebench.scoring.pairwise import draft_quality, pairwise_accuracy

# The per-turn metrics, in the order of scores.json and of the per-turn frame's columns.
_TURN_METRICS = (
    "emotion_f1",
    "emotion_va",
    "binary_om_accuracy",
    "binary_human_accuracy",
    "binary_om_accuracy_hp",
    "binary_human_accuracy_hp",
    "pairwise_accuracy",
    "draft_judge_score",
)


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
