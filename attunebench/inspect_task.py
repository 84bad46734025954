"""AttuneBench as an Inspect task (the ``inspect`` extra: ``pip install 'attunebench[inspect]'``).

    inspect eval attunebench/attunebench -T data=releases/attunebench/1.0.0 \\
        --model openai/gpt-4o-mini --model-role judge=anthropic/claude-sonnet-4-5

One sample per conversation and mode. The solver runs the engine's own unit of work
(``runner.run_unit``: the same prompts, thread, re-asks and parsing as ``attunebench run``),
but every model call goes through Inspect's models: the evaluated model, and the ``judge`` role
for the judged axis (no judge role: no judge calls, and that axis is undefined, as in a run
without ``--judge``). So the calls are in the Inspect log's transcripts, under the Inspect
user's generation settings, retries and limits. The scorer scores the unit's run output with
the package's scorer (``scoring.score_conversation``), and the metrics are the package's means
and standard errors over conversations (``scoring.summarise``): the figures ``attunebench
score`` gives for the same answers.

This module is the only one that imports ``inspect_ai`` (an import-linter contract keeps the
rest of the package free of it), and nothing in the package imports this module: Inspect finds
it through the ``inspect_ai`` entry point of the distribution.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    Model,
    ModelOutput,
    get_model,
    model_roles,
)
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    metric,
    scorer,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from attune_collect.llm import Completion, EndpointConfig, LLMGateway
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.release import SourcedConversation, load_conversations
from attunebench.run_output import run_output_from_dict, run_output_to_dict
from attunebench.runner import MODES, RunOptions, check_mode, run_unit
from attunebench.scoring import ScoringOptions, score_conversation, summarise

# The axes and the composite (scores.json's names): the task's metrics.
AXES: tuple[str, ...] = (
    "composite_score",
    "emotion_recognition",
    "behaviour_classification",
    "preference_prediction",
    "judged_response_quality",
    "outcome_prediction",
)
JUDGE_ROLE = "judge"
# Where the solver leaves the unit's run output (section 6 shape) for the scorer and the log.
RUN_OUTPUT_KEY = "attunebench_run_output"
# The engine's routes to Inspect's models: EndpointConfig.name (never sent anywhere).
_EVALUATED, _JUDGE = "inspect:model", "inspect:judge"


@task
def attunebench(
    data: str,
    subsample: str | None = None,
    modes: str | Sequence[str] = "default",
    panas_strategy: str = "absolute",
    max_reasks: int = 2,
) -> Task:
    """AttuneBench on the release folder ``data`` (or one of its subsamples, e.g. ``sample50``),
    in one or more ``modes`` (``default``, ``verbose``, ``omniscient``, ``verbose_omniscient``;
    a list, or names joined by commas). The judged axis needs the ``judge`` model role."""
    chosen = _modes(modes)
    items = list(_conversations(str(data), subsample).values())
    samples = [
        Sample(
            id=f"{item.conversation.conversation_id}:{mode}",
            input=_opening(item),
            metadata={"source_file": item.source_file, "mode": mode},
        )
        for mode in chosen
        for item in items
    ]
    return Task(
        dataset=MemoryDataset(samples, name=f"attunebench:{Path(data).name}"),
        solver=attunebench_solver(data, subsample, panas_strategy, max_reasks),
        scorer=attunebench_scorer(data, subsample),
        metadata={"data": str(data), "subsample": subsample, "modes": list(chosen)},
    )


@solver
def attunebench_solver(
    data: str, subsample: str | None, panas_strategy: str = "absolute", max_reasks: int = 2
) -> Solver:
    """The engine's unit for the sample's conversation and mode, its calls made through
    Inspect's models; the run output goes to the sample's store (``RUN_OUTPUT_KEY``)."""
    conversations = _conversations(data, subsample)
    RunOptions(panas_strategy=panas_strategy, max_reasks=max_reasks)  # refuse bad options now

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        item = conversations[state.metadata["source_file"]]
        model = get_model()
        judge = _judge_model()
        routes = {_EVALUATED: model}
        judges: tuple[EndpointConfig, ...] = ()
        if judge is not None:
            routes[_JUDGE] = judge
            judges = (EndpointConfig(str(judge), name=_JUDGE),)
        options = RunOptions(panas_strategy=panas_strategy, judges=judges, max_reasks=max_reasks)
        executor = CallExecutor(MemoryCallCache(), InspectGateway(routes))
        try:
            output = await run_unit(
                item.conversation,
                EndpointConfig(str(model), name=_EVALUATED),
                state.metadata["mode"],
                options,
                executor,
                source_file=item.source_file,
            )
        except BaseExceptionGroup as failures:
            # Inspect records the sample's error (and retries it as the user's options say).
            raise _first_leaf(failures) from None
        finally:
            executor.pool.close()
        state.store.set(RUN_OUTPUT_KEY, run_output_to_dict(output))
        state.output = ModelOutput.from_content(str(model), _summary(output.parse_failures))
        return state

    return solve


class InspectGateway(LLMGateway):
    """The engine's gateway, answered by Inspect's models: ``EndpointConfig.name`` picks the
    model (the evaluated one or the judge). Inspect applies its generation settings, retries,
    rate limits and logging; the engine keeps its own parsing and re-asks on top."""

    def __init__(self, models: Mapping[str, Model]) -> None:
        super().__init__()
        self.models = dict(models)

    async def complete(
        self, endpoint: EndpointConfig, messages: Sequence[Mapping[str, Any]], **params: Any
    ) -> Completion:
        model = self.models[endpoint.name]
        started = time.perf_counter()
        output = await model.generate([_chat_message(message) for message in messages])
        usage = output.usage
        return Completion(
            text=output.completion,
            finish_reason=output.stop_reason,
            prompt_tokens=usage.input_tokens if usage else 0,
            completion_tokens=usage.output_tokens if usage else 0,
            cost_usd=0.0,  # Inspect keeps the usage; prices are the Inspect user's concern
            latency_ms=(time.perf_counter() - started) * 1000,
            model=output.model or str(model),
            attempts=1,
        )


@metric
def axis_mean() -> Metric:
    """The mean over conversations of the defined values (``scoring.summarise``, as
    ``attunebench score``); NaN when no conversation defines it (e.g. no judge)."""

    def compute(scores: list[SampleScore]) -> float:
        mean = summarise(_values(scores)).mean
        return float("nan") if mean is None else mean

    return compute


@metric
def axis_stderr() -> Metric:
    """The standard error over conversations (sample sd / sqrt(n), ``scoring.summarise``)."""

    def compute(scores: list[SampleScore]) -> float:
        error = summarise(_values(scores)).standard_error
        return float("nan") if error is None else error

    return compute


def _values(scores: list[SampleScore]) -> list[float | None]:
    """The scores' values, None where undefined (NaN or None), as ``summarise`` takes them."""
    found: list[float | None] = []
    for sample in scores:
        value = sample.score.value
        number = float(value) if isinstance(value, int | float) else None
        found.append(None if number is None or math.isnan(number) else number)
    return found


def _nan_if_none(value: float | None) -> float:
    return float("nan") if value is None else value


@scorer(metrics={axis: [axis_mean(), axis_stderr()] for axis in AXES})
def attunebench_scorer(data: str, subsample: str | None) -> Scorer:
    """The package's scorer on the sample's run output: the axes and the composite of the
    conversation (NaN where scores.json has None), every metric of the conversation in the
    metadata."""
    conversations = _conversations(data, subsample)

    async def score(state: TaskState, target: Target) -> Score:
        item = conversations[state.metadata["source_file"]]
        run = run_output_from_dict(state.store.get(RUN_OUTPUT_KEY))
        scores = score_conversation(item.conversation, run, ScoringOptions())
        values = scores.metric_values()
        return Score(
            # NaN, not None, where an axis is undefined for the conversation (e.g. no judge, or
            # no pairwise comparison): Inspect leaves NaN out of a key's metrics ("unscored"),
            # as the package's means leave None out, while its reducers count None as 0.
            value={axis: _nan_if_none(values[axis]) for axis in AXES},
            answer=state.output.completion,
            metadata={"conversation_scores": values, "parse_failures": scores.parse_failures},
        )

    return score


def _judge_model() -> Model | None:
    """The model bound to the ``judge`` role (the first, if a list), or None when the user
    bound none: then no judge is asked, as in a run without ``--judge``. Not
    ``get_model(role=...)``, which falls back on the evaluated model: it would judge itself."""
    bound = model_roles().get(JUDGE_ROLE)
    if isinstance(bound, list):
        return bound[0] if bound else None
    return bound


def _chat_message(message: Mapping[str, Any]) -> ChatMessage:
    role, content = message["role"], str(message["content"])
    if role == "system":
        return ChatMessageSystem(content=content)
    if role == "assistant":
        return ChatMessageAssistant(content=content)
    return ChatMessageUser(content=content)


@cache
def _conversations(data: str, subsample: str | None) -> dict[str, SourcedConversation]:
    """The release's conversations by file name, read once per process (the solver and the
    scorer of a task share them)."""
    return {item.source_file: item for item in load_conversations(data, subsample)}


def _modes(modes: str | Sequence[str]) -> tuple[str, ...]:
    names = modes.split(",") if isinstance(modes, str) else list(modes)
    chosen = tuple(dict.fromkeys(name.strip() for name in names if name.strip()))
    if not chosen:
        raise ValueError(f"no mode given (expected some of {', '.join(MODES)})")
    for mode in chosen:
        check_mode(mode)
    return chosen


def _opening(item: SourcedConversation) -> str:
    """What the viewer shows as the sample's input: the participant's first message."""
    turns = item.conversation.turns
    return turns[0].user_message if turns else f"(conversation {item.source_file})"


def _summary(parse_failures: Mapping[str, Mapping[str, int]]) -> str:
    calls = sum(counts.get("calls", 0) for counts in parse_failures.values())
    failed = sum(counts.get("failures", 0) for counts in parse_failures.values())
    return f"{calls} answers, {failed} unusable (the run output is in the sample's store)"


def _first_leaf(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


__all__ = [
    "AXES",
    "JUDGE_ROLE",
    "RUN_OUTPUT_KEY",
    "InspectGateway",
    "attunebench",
    "attunebench_scorer",
    "attunebench_solver",
    "axis_mean",
    "axis_stderr",
]
