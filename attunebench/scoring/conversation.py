"""Per-conversation scores: turn means, the post-conversation metrics, pillars and composite
(section 4, section 6 metric names)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from attunebench.records import Conversation, ConversationWide
from attunebench.run_output import RunOutput, TurnOutput
from attunebench.scoring.behaviour import CONFUSION_KEYS, ConfusionCounts
from attunebench.scoring.common import _mean
from attunebench.scoring.four_branch import four_branch_score
from attunebench.scoring.options import ScoringOptions
from attunebench.scoring.panas import score_panas
from attunebench.scoring.text_matching import exact_match, fuzzy_set_f1, set_f1
from attunebench.scoring.turn import TurnScores, score_turn

# Per-conversation metrics that are averaged per model and mode (section 6 names first).
METRIC_NAMES: tuple[str, ...] = (
    "avg_emotion_f1",
    "avg_emotion_va_score",
    "avg_binary_om_accuracy",
    "avg_binary_human_accuracy",
    "avg_binary_om_accuracy_hp",
    "avg_binary_human_accuracy_hp",
    "perspective_gap",
    "avg_pairwise_accuracy",
    "avg_draft_judge_score",
    "panas_score",
    "panas_adjusted",
    "panas_positive_adjusted",
    "panas_negative_adjusted",
    "panas_mae",
    "q1_f1",
    "q2_match",
    "q3_match",
    "followup_f1",
    "four_branch_score",
    "emotion_tracking",
    "evaluation_quality",
    "holistic_comprehension",
    "composite_score",
    "emotion_recognition",
    "behaviour_classification",
    "preference_prediction",
    "judged_response_quality",
    "outcome_prediction",
)


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
    composite_score: float | None  # None when a pillar is undefined (no scored turn)
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
    emotion_tracking: float | None, evaluation_quality: float | None, holistic: float | None
) -> float | None:
    """Section 4 composite: 100 x (0.24 ET + 0.49 EQ + 0.27 HC), rounded to 2 decimals.

    Undefined when a pillar is (no turn of the conversation in the run: its turn means do
    not exist). Section 4 gives no value for a missing pillar, and counting it as 0 would put
    a number made mostly of missing data into the model's composite mean; undefined, the
    conversation is left out of that mean like any other undefined score.
    """
    if emotion_tracking is None or evaluation_quality is None or holistic is None:
        return None
    value = 100 * (0.24 * emotion_tracking + 0.49 * evaluation_quality + 0.27 * holistic)
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
