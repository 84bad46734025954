"""The per-turn view of a finished run: which of its conversations a model got wrong where,
and one conversation turn by turn (``turn_marks``), for one or two of its models side by side.

Read from what the run stored, never from the report folder: the release's conversation
records (the participant's answers) and the units' run outputs (the predictions and the
judges' labels), scored with the report's scoring defaults. Who may read it is the admin view's
business (the run report's permission); this module trusts its caller.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from attunebench.records import Conversation
from attunebench.run_output import AnswerMap, RunOutput, run_output_from_dict
from attunebench.score_folder import main_mode
from attunebench.scoring import score_conversation
from evaluation.engine import model_spec, read_conversation
from evaluation.models import EvaluationRun, EvaluationUnit, UnitStatus
from evaluation.services.errors import EvaluationError
from evaluation.services.turn_marks import (
    AXES,
    JUDGED,
    MARKED_AXES,
    ORIGINAL,
    TurnView,
    outputs_by_turn,
    turn_view,
    wrong_axes,
)

ANY_MODEL = "any"  # "only turns a model got wrong": either model shown


@dataclass(frozen=True)
class Selection:
    """What the reader asked for: one or two models (endpoint aliases) of the run, a mode, an
    axis ("" for all of them) and whose wrong turns alone to keep ("" for every turn,
    ``ANY_MODEL`` or one of the models)."""

    models: tuple[str, ...]
    mode: str
    axis: str = ""
    wrong: str = ""


def run_models(run: EvaluationRun) -> list[str]:
    return list(run.models_under_test.order_by("alias").values_list("alias", flat=True))


def default_selection(run: EvaluationRun) -> Selection:
    return Selection(models=tuple(run_models(run)[:2]), mode=main_mode(run.modes))


def check_selection(run: EvaluationRun, selection: Selection) -> Selection:
    """The selection when the run has what it names; an ``EvaluationError`` saying what is
    wrong otherwise."""
    known = run_models(run)
    if not 1 <= len(selection.models) <= 2:
        raise EvaluationError("Choose one or two of the run's models.")
    if len(set(selection.models)) != len(selection.models):
        raise EvaluationError("Choose two different models to compare (or just one).")
    unknown = [m for m in selection.models if m not in known]
    if unknown:
        raise EvaluationError(f"Not a model of this run: {', '.join(unknown)}.")
    if selection.mode not in run.modes:
        raise EvaluationError(f"This run has no mode {selection.mode!r}.")
    if selection.axis and selection.axis not in AXES:
        raise EvaluationError(f"Unknown axis {selection.axis!r}.")
    if selection.wrong and selection.wrong not in (ANY_MODEL, *selection.models):
        raise EvaluationError("'Only turns got wrong by' must name a model shown.")
    return selection


def keeps(turn: TurnView, selection: Selection) -> bool:
    """Whether the turn passes the "only turns a model got wrong" filter: the named model (or
    either model shown) got the selected axis wrong there (any axis when none is selected).
    Judged quality has no participant answer per turn, so no turn is wrong on it."""
    if not selection.wrong:
        return True
    axes = set(MARKED_AXES) if not selection.axis else {selection.axis} - {JUDGED}
    models = selection.models if selection.wrong == ANY_MODEL else (selection.wrong,)
    return any(turn.wrong_for(model) & axes for model in models)


@dataclass(frozen=True)
class WrongCounts:
    """Per axis with a participant answer, how many of the turns a model answered it got wrong."""

    model: str
    turns_scored: int
    wrong: dict[str, int]

    def counts(self) -> list[int]:
        return [self.wrong[axis] for axis in MARKED_AXES]


@dataclass(frozen=True)
class ConversationRow:
    conversation_id: str
    turns: int
    models: tuple[WrongCounts | None, ...]  # in the selection's order; None: no output


@dataclass(frozen=True)
class ConversationPage:
    conversation_id: str
    turns: tuple[TurnView, ...]  # after the filter
    total_turns: int
    counts: tuple[WrongCounts | None, ...]
    judges: tuple[tuple[str, str], ...]  # (model string, label), in the turns' judge order


def _units(run: EvaluationRun, selection: Selection, **lookups) -> Iterable[EvaluationUnit]:
    return (
        run.units.filter(status=UnitStatus.DONE, mode=selection.mode, **lookups)
        .select_related("endpoint")
        .order_by("conversation_id", "pk")
    )


def _counts(conversation: Conversation, output: RunOutput | None, model: str) -> WrongCounts | None:
    if output is None:
        return None
    scores = score_conversation(conversation, output)
    wrong = {axis: 0 for axis in MARKED_AXES}
    for turn in scores.turns:
        for axis in wrong_axes(turn):
            wrong[axis] += 1
    return WrongCounts(model=model, turns_scored=scores.n_turns_scored, wrong=wrong)


def conversation_rows(run: EvaluationRun, selection: Selection) -> list[ConversationRow]:
    """Every conversation the selected models answered in the mode, with their wrong turns."""
    by_conversation: dict[str, dict[str, EvaluationUnit]] = {}
    for unit in _units(run, selection, endpoint__alias__in=selection.models):
        by_conversation.setdefault(unit.conversation_id, {})[unit.endpoint.alias] = unit
    rows = []
    for conversation_id, units in by_conversation.items():
        conversation = read_conversation(run.release.folder, next(iter(units.values())).source_file)
        outputs = {alias: run_output_from_dict(unit.output) for alias, unit in units.items()}
        rows.append(
            ConversationRow(
                conversation_id=conversation_id,
                turns=len(conversation.turns),
                models=tuple(
                    _counts(conversation, outputs.get(model), model) for model in selection.models
                ),
            )
        )
    return rows


def judge_names(run: EvaluationRun) -> list[tuple[str, str]]:
    """The run's judges as (model string, "alias (model string)"): outputs name a judge by its
    model string, the reader knows it by its alias."""
    names = []
    for endpoint in run.judges.order_by("alias"):
        model = model_spec(endpoint).name
        names.append((model, f"{endpoint.alias} ({model})" if endpoint.alias != model else model))
    return names


def _judge_answers(outputs: Sequence[RunOutput], turn_number: int) -> dict[str, AnswerMap]:
    """Each judge's answers about the turn's original reply. A judge's answers repeat in every
    unit (one cached request): the first output that has them speaks for all."""
    answers: dict[str, AnswerMap] = {}
    for output in outputs:
        turn = outputs_by_turn(output).get(turn_number)
        for judge, replies in ((turn and turn.judge_reply_assessment_by_model) or {}).items():
            if judge not in answers and replies.get(ORIGINAL) is not None:
                answers[judge] = replies[ORIGINAL]
    return answers


def conversation_page(
    run: EvaluationRun, conversation_id: str, selection: Selection
) -> ConversationPage | None:
    """One conversation turn by turn for the selection; None when no unit of the run's mode
    answered it (an unknown id included)."""
    units = list(_units(run, selection, conversation_id=conversation_id))
    if not units:
        return None
    conversation = read_conversation(run.release.folder, units[0].source_file)
    all_outputs = [run_output_from_dict(unit.output) for unit in units]
    by_model = {
        unit.endpoint.alias: output for unit, output in zip(units, all_outputs, strict=True)
    }
    chosen = {model: by_model.get(model) for model in selection.models}
    per_turn = {model: outputs_by_turn(output) for model, output in chosen.items()}
    judges = judge_names(run)
    views = [
        turn_view(
            turn,
            {model: turns.get(turn.turn_number) for model, turns in per_turn.items()},
            judges=[model for model, _ in judges],
            judge_answers=_judge_answers(all_outputs, turn.turn_number),
        )
        for turn in conversation.turns
    ]
    return ConversationPage(
        conversation_id=conversation_id,
        turns=tuple(view for view in views if keeps(view, selection)),
        total_turns=len(views),
        counts=tuple(_counts(conversation, chosen[model], model) for model in selection.models),
        judges=tuple(judges),
    )
