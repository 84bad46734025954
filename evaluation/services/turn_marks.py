"""One turn of a conversation, the participant's answers beside each model's predictions and
the judges' labels, every prediction marked agree/disagree by the report's own scoring.

Pure: typed records in (the release's conversation, the run outputs), frozen rows out; no
Django. Nothing here scores anew: each mark is the section 4 function the report uses applied to
one item (``behaviour_pairs`` on one judgement, ``pairwise_accuracy`` on one comparison,
``emotion_f1`` on one tag), and whether a model got an axis wrong at a turn comes from
``score_turn``, the function behind ``per_turn.parquet``. So a turn marked wrong here is a turn
whose per-turn score in the report is below 1.

Axes (the paper's, as the report names them):
- emotion: the participant's mood tags against the model's emotion tags (Emotion F1 and VA);
  wrong when F1 < 1 (the two sets differ).
- behaviour: "did the model do it", the participant's observed answer (``llmValue`` when blank)
  against the model's OM assessment; wrong when the turn's OM accuracy < 1.
- preference: "should it have", the participant's preferred answer (observed when blank)
  against the model's human prediction, and the participant's A/B choices against the model's;
  wrong when the human-prediction or the pairwise accuracy < 1.
- judged: the judges' scores of the model's draft (no participant answer to be wrong against),
  and each judge's own answers about the original reply beside what the participant observed
  (the report's judge-vs-participant agreement: asked questions, yes/no answers only).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from attunebench.records import BinaryJudgement, MoodTag, PairwiseComparison, Turn
from attunebench.run_output import JUDGED_REPLIES, AnswerMap, RunOutput, TurnOutput
from attunebench.scoring import (
    BehaviourTarget,
    ScoringOptions,
    TurnScores,
    behaviour_pairs,
    draft_quality,
    emotion_f1,
    is_applicable,
    pairwise_accuracy,
    score_turn,
)

EMOTION, BEHAVIOUR, PREFERENCE, JUDGED = "emotion", "behaviour", "preference", "judged"
AXES: tuple[str, ...] = (EMOTION, BEHAVIOUR, PREFERENCE, JUDGED)
AXIS_LABELS = {
    EMOTION: "Emotion recognition",
    BEHAVIOUR: "Behaviour classification",
    PREFERENCE: "Preference prediction",
    JUDGED: "Judged response quality",
}
# The axes with a participant answer per turn, so the ones a model can get wrong.
MARKED_AXES: tuple[str, ...] = (EMOTION, BEHAVIOUR, PREFERENCE)
ORIGINAL = JUDGED_REPLIES[0]


@dataclass(frozen=True)
class Mark:
    """One prediction (or judge label) beside the participant's answer."""

    answer: str  # what the model or judge said, as scored ("no" for a missing prediction)
    agrees: bool


@dataclass(frozen=True)
class TagMark:
    emotion: str
    intensity: int | None
    agrees: bool  # the participant tagged this emotion too (the F1's case-insensitive match)


@dataclass(frozen=True)
class ModelEmotion:
    tags: tuple[TagMark, ...]
    f1: float
    va: float

    @property
    def agrees(self) -> bool:
        return self.f1 == 1.0


@dataclass(frozen=True)
class QuestionRow:
    """A behaviour question with a yes/no ground truth: the participant's answer and one
    ``Mark`` per model (None where the model's output lacks the turn) and per judge."""

    question_id: str
    truth: str
    models: tuple[Mark | None, ...]
    judges: tuple[Mark | None, ...] = ()


@dataclass(frozen=True)
class ComparisonRow:
    question_id: str
    response_a: str
    response_b: str
    winner: str | None
    models: tuple[Mark | None, ...]


@dataclass(frozen=True)
class JudgedDraft:
    quality: float | None  # (mean judge dimension - 1) / 6, the report's judged quality
    by_judge: tuple[tuple[str, float | None], ...]  # judge model string -> its own quality


@dataclass(frozen=True)
class ModelTurn:
    """What one model did at the turn; None fields when its output lacks the turn."""

    model: str
    scores: TurnScores | None
    emotion: ModelEmotion | None
    judged: JudgedDraft | None

    @property
    def answered(self) -> bool:
        return self.scores is not None

    @property
    def wrong(self) -> frozenset[str]:
        return wrong_axes(self.scores)

    @property
    def wrong_labels(self) -> list[str]:
        """The axes it got wrong, named, in the axes' order (for the page)."""
        return [AXIS_LABELS[axis] for axis in MARKED_AXES if axis in self.wrong]


@dataclass(frozen=True)
class TurnView:
    turn_number: int
    user_message: str
    reply: str
    truth_tags: tuple[MoodTag, ...]
    models: tuple[ModelTurn, ...]
    behaviour: tuple[QuestionRow, ...]  # OM: observed (llmValue fallback) vs OM assessment
    preference: tuple[QuestionRow, ...]  # preferred (observed fallback) vs human prediction
    comparisons: tuple[ComparisonRow, ...]
    judges: tuple[str, ...]  # judge model strings, in the order of QuestionRow.judges
    judge_labels: tuple[QuestionRow, ...]  # observed vs each judge's label of the reply

    def wrong_for(self, model: str) -> frozenset[str]:
        return next((m.wrong for m in self.models if m.model == model), frozenset())


def wrong_axes(scores: TurnScores | None) -> frozenset[str]:
    """The axes a model got wrong at a turn: its per-turn score there is below 1."""
    if scores is None:
        return frozenset()
    wrong = set()
    if scores.emotion_f1 < 1.0:
        wrong.add(EMOTION)
    if scores.binary_om_accuracy < 1.0:
        wrong.add(BEHAVIOUR)
    if scores.binary_human_accuracy < 1.0 or scores.pairwise_accuracy < 1.0:
        wrong.add(PREFERENCE)
    return frozenset(wrong)


def outputs_by_turn(run: RunOutput | None) -> dict[int, TurnOutput]:
    """The first record of each turn wins, as the scorer reads a run output."""
    outputs: dict[int, TurnOutput] = {}
    for output in run.turns if run is not None else ():
        if output.turn_number is not None and output.turn_number not in outputs:
            outputs[output.turn_number] = output
    return outputs


def turn_view(
    turn: Turn,
    outputs: Mapping[str, TurnOutput | None],
    *,
    judges: Sequence[str] = (),
    judge_answers: Mapping[str, AnswerMap] | None = None,
    options: ScoringOptions | None = None,
) -> TurnView:
    """The turn for the models of ``outputs`` (label -> its output of the turn, None when it
    lacks the turn), in their order. ``judges`` are judge model strings; ``judge_answers``
    their answers about the original reply (judge -> question id -> answer)."""
    judgements = turn.annotations.binary_judgements
    models = tuple(_model_turn(turn, label, output, options) for label, output in outputs.items())
    answers = list(outputs.values())
    return TurnView(
        turn_number=turn.turn_number,
        user_message=turn.user_message,
        reply=turn.llm_response,
        truth_tags=turn.mood_tags,
        models=models,
        behaviour=_question_rows(judgements, answers, "om", options),
        preference=_question_rows(judgements, answers, "human", options),
        comparisons=tuple(
            ComparisonRow(
                question_id=c.question_id,
                response_a=c.response_a,
                response_b=c.response_b,
                winner=c.winner,
                models=tuple(_comparison_mark(c, index, output) for output in answers),
            )
            for index, c in enumerate(turn.annotations.pairwise_comparisons)
        ),
        judges=tuple(judges),
        judge_labels=_judge_rows(judgements, judges, judge_answers or {}),
    )


def _model_turn(
    turn: Turn,
    label: str,
    output: TurnOutput | None,
    options: ScoringOptions | None,
) -> ModelTurn:
    if output is None:
        return ModelTurn(model=label, scores=None, emotion=None, judged=None)
    # The HP-worded review is no axis of the paper's: its metrics are left out (None).
    scores = score_turn(turn, output, options, score_hp=False)
    tags = tuple(
        TagMark(tag.emotion, tag.intensity, emotion_f1(turn.mood_tags, [tag]) > 0)
        for tag in output.em_emotion_tags or ()
    )
    by_judge = tuple(
        (judge, draft_quality(scores_of_judge))
        for judge, scores_of_judge in (output.em_draft_judge_scores_by_model or {}).items()
    )
    return ModelTurn(
        model=label,
        scores=scores,
        emotion=ModelEmotion(tags=tags, f1=scores.emotion_f1, va=scores.emotion_va),
        judged=JudgedDraft(quality=scores.draft_judge_score, by_judge=by_judge),
    )


def _prediction_map(output: TurnOutput, target: BehaviourTarget) -> AnswerMap | None:
    return output.em_binary_om_assessment if target == "om" else output.em_binary_human_prediction


def _question_rows(
    judgements: Sequence[BinaryJudgement],
    outputs: Sequence[TurnOutput | None],
    target: BehaviourTarget,
    options: ScoringOptions | None,
) -> tuple[QuestionRow, ...]:
    """The questions the report scores for ``target``: each judgement run through
    ``behaviour_pairs`` alone, so its ground truth, fallbacks and "missing counts as no" are
    the scorer's."""
    rows = []
    for judgement in judgements:
        truth_only = behaviour_pairs([judgement], None, target, options)
        if not truth_only:
            continue  # no yes/no ground truth: the report does not score it
        marks: list[Mark | None] = []
        for output in outputs:
            if output is None:
                marks.append(None)
                continue
            pairs = behaviour_pairs([judgement], _prediction_map(output, target), target, options)
            truth, predicted = pairs[0]
            marks.append(Mark(answer=predicted, agrees=truth == predicted))
        rows.append(QuestionRow(judgement.question_id, truth_only[0][0], tuple(marks)))
    return tuple(rows)


def _comparison_mark(
    comparison: PairwiseComparison, index: int, output: TurnOutput | None
) -> Mark | None:
    if output is None:
        return None
    chosen = (output.em_pairwise_selections or {}).get(str(index))
    hit = pairwise_accuracy([comparison], {"0": chosen}) == 1.0
    letter = chosen.strip().upper() if isinstance(chosen, str) else ""
    return Mark(answer=letter or "–", agrees=hit)


def _yes_no(value: object) -> str | None:
    answer = value.strip().lower() if isinstance(value, str) else None
    return answer if answer in ("yes", "no") else None


def _judge_rows(
    judgements: Sequence[BinaryJudgement],
    judges: Sequence[str],
    answers: Mapping[str, AnswerMap],
) -> tuple[QuestionRow, ...]:
    """The report's judge-vs-participant pairing on the original reply: a question the
    participant was asked (section 3) and answered yes/no about what they observed, beside each
    judge's yes/no (no mark when the judge gave no yes/no: the agreement leaves it out)."""
    if not judges:
        return ()
    rows = []
    for judgement in judgements:
        observed = _yes_no(judgement.observed)
        if observed is None or not is_applicable(judgement):
            continue
        marks: list[Mark | None] = []
        for judge in judges:
            label = _yes_no((answers.get(judge) or {}).get(judgement.question_id))
            marks.append(None if label is None else Mark(answer=label, agrees=label == observed))
        rows.append(QuestionRow(judgement.question_id, observed, (), tuple(marks)))
    return tuple(rows)
