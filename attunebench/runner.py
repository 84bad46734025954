"""One unit of work: one conversation, one model under test, one mode -> one ``RunOutput``.

This is the entry point the Django side distributes over Celery workers (issue 8):

    executor = CallExecutor(SQLiteCallCache(path))        # one per event loop / process
    output = await run_unit(conversation, EndpointConfig("openai/gpt-4o"), "default",
                            RunOptions(judges=(EndpointConfig("openai/gpt-4o-mini"),)), executor)

Per turn (section 3): draft and OM review in the conversation thread; HP-perspective review
and pairwise (where the turn has comparisons) outside it; each judge on the draft, and each
judge on the original reply and on the participant's edited reply (the behaviour questions
only, for judge-vs-participant agreement; the same request in every unit, so the call cache
answers it once per judge); after the last turn one post-conversation call in the thread. Because the thread holds placeholders, not
answers, no call waits for another (except a judge for its draft): every call of the unit is
queued at once, ranked so that earlier units and turns go first.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from attune_collect.llm import EndpointConfig
from attune_collect.llm.secrets_policy import redact_params
from attunebench import calls
from attunebench.answer_log import AnswerLog
from attunebench.asking import DEFAULT_MAX_REASKS, Answer, FatalModelError, ask
from attunebench.executor import CallExecutor
from attunebench.instrument import Instrument, default_instrument
from attunebench.judging import combine_scores, judge_scores, majority
from attunebench.language import conversation_language
from attunebench.pairwise import Presentation, present
from attunebench.prompts import DEFAULT_PROMPT_SET, PromptSet, load_prompt_set
from attunebench.records import Conversation, Turn
from attunebench.run_output import (
    PostConversationOutput,
    PredictedConversationWide,
    PredictedPanas,
    RunOutput,
    TurnOutput,
)
from attunebench.thread import ConversationThread
from attunebench.writer import conversation_filename

MODES: tuple[str, ...] = ("default", "verbose", "omniscient", "verbose_omniscient")
PANAS_STRATEGIES: tuple[str, ...] = ("absolute", "delta", "blind_delta")


@dataclass(frozen=True)
class RunOptions:
    """Everything besides (conversation, model, mode) that shapes a unit's calls."""

    panas_strategy: str = "absolute"
    judges: tuple[EndpointConfig, ...] = ()
    prompt_set: str = DEFAULT_PROMPT_SET
    instrument: Instrument = field(default_factory=default_instrument)
    max_reasks: int = DEFAULT_MAX_REASKS
    pairwise_seed: int = 0
    shuffle_pairwise: bool = True

    def __post_init__(self) -> None:
        if self.panas_strategy not in PANAS_STRATEGIES:
            raise ValueError(
                f"unknown PANAS strategy {self.panas_strategy!r} "
                f"(expected one of {', '.join(PANAS_STRATEGIES)})"
            )
        if self.max_reasks < 0:
            raise ValueError("max_reasks cannot be negative")

    @property
    def prompts(self) -> PromptSet:
        return load_prompt_set(self.prompt_set)

    def fingerprint(self, model: EndpointConfig) -> dict[str, Any]:
        """What a finished output must match to be reused by a resumed run. It is written into
        every output, so parameters pass the credential filter (the gateway refuses to call
        with a credential in them anyway)."""
        return {
            "prompt_version": self.prompts.version_id,
            "panas_strategy": self.panas_strategy,
            "model_params": redact_params(dict(model.params)),
            "judges": [
                {"model": j.model, "params": redact_params(dict(j.params))} for j in self.judges
            ],
            "instrument": f"{self.instrument.name}@{self.instrument.version}:"
            f"{self.instrument.canonical_hash()[:12]}",
            "max_reasks": self.max_reasks,
            "pairwise_seed": self.pairwise_seed,
            "shuffle_pairwise": self.shuffle_pairwise,
        }


def check_mode(mode: str) -> None:
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r} (expected one of {', '.join(MODES)})")


def planned_calls(conversation: Conversation, options: RunOptions) -> int:
    """Calls one unit makes when every answer parses the first time (no re-asks)."""
    total = 1  # post-conversation
    for turn in conversation.turns:
        total += 2 + len(options.judges)  # draft, OM review, judges
        asked = bool(calls.applicable_question_ids(turn))
        total += asked  # HP-perspective review
        total += bool(turn.annotations.pairwise_comparisons)
    return total + len(options.judges) * judged_reply_calls(conversation)


def judged_reply_calls(conversation: Conversation) -> int:
    """Calls one judge makes on the original and edited replies of a conversation: the same
    requests in every unit and mode, so a run makes them once (the call cache answers again)."""
    return sum(
        len(_judged_replies(turn))
        for turn in conversation.turns
        if calls.applicable_question_ids(turn)
    )


def _judged_replies(turn: Turn) -> dict[str, str]:
    """The replies judges answer the behaviour questions about (``JUDGED_REPLIES``)."""
    replies = {"original": turn.llm_response}
    if turn.annotations.human_edited:
        replies["human_edited"] = turn.annotations.human_edited
    return replies


async def run_unit(
    conversation: Conversation,
    model: EndpointConfig,
    mode: str,
    options: RunOptions,
    executor: CallExecutor,
    *,
    source_file: str | None = None,
    priority: int = 0,
) -> RunOutput:
    """Run every call of one unit and assemble its run output (section 6 shape).

    Failed answers are recorded, never raised; only ``FatalModelError`` (the model cannot be
    called at all: bad key or configuration) propagates, because every other unit of that
    model would fail the same way.
    """
    check_mode(mode)
    started, timestamp = time.perf_counter(), _now()
    unit = _Unit(conversation, model, mode, options, executor, priority)
    try:
        async with asyncio.TaskGroup() as group:
            turn_tasks = [
                unit.start_turn(group, index, turn) for index, turn in enumerate(conversation.turns)
            ]
            post_task = group.create_task(unit.ask_post())
    except* FatalModelError as failures:
        raise _first_leaf(failures) from None
    log = AnswerLog()
    turns = tuple(task.output(log) for task in turn_tasks)
    post = unit.post_output(post_task.result(), log)
    return RunOutput(
        conversation_id=conversation.conversation_id,
        source_file=source_file or conversation_filename(conversation.conversation_id),
        em_model=model.model,
        run_timestamp=timestamp,
        mode=mode,
        api_cost=round(log.cost_usd, 8),
        duration_seconds=round(time.perf_counter() - started, 3),
        turns=turns,
        post_conversation=post,
        prompt_version=options.prompts.version_id,
        parse_failures=log.parse_failures(),
        other={**log.extra_keys(), "engine": options.fingerprint(model)},
    )


# --- one unit's calls -------------------------------------------------------------------------


@dataclass
class _TurnTasks:
    """The calls of one turn, started; ``output`` assembles its TurnOutput when all are done."""

    turn: Turn
    verbose: bool
    judges: tuple[str, ...]  # the configured judges' models; empty: a run without judges
    draft: asyncio.Task[tuple[Answer, list[Answer]]]
    om_review: asyncio.Task[Answer]
    hp_review: asyncio.Task[Answer] | None
    pairwise: asyncio.Task[Answer] | None
    presentation: Presentation
    # (judged reply, task) per judge call on the original / edited reply
    reply_judges: list[tuple[str, asyncio.Task[Answer]]] = field(default_factory=list)

    def output(self, log: AnswerLog) -> TurnOutput:
        number = self.turn.turn_number
        draft, judges = self.draft.result()
        om = self.om_review.result()
        hp = self.hp_review.result() if self.hp_review else None
        pairwise = self.pairwise.result() if self.pairwise else None
        reply_answers = [(reply, task.result()) for reply, task in self.reply_judges]
        for answer in (draft, om, hp, pairwise, *judges, *(a for _, a in reply_answers)):
            if answer is not None:
                log.add(answer, number)
        assessed: dict[str, dict[str, Any]] = {}
        for reply, answer in reply_answers:
            if answer.value is not None:
                assessed.setdefault(answer.model, {})[reply] = answer.value["behaviour"]
        scores = {a.model: judge_scores(a.value) for a in judges if a.value is not None}
        behaviour = {a.model: a.value["behaviour"] for a in judges if a.value is not None}
        combined = combine_scores(scores, self.judges)
        if judges:  # the draft went to the judges: count the turns a judge left unscored
            log.judged_turn(complete=combined is not None)
        return TurnOutput(
            turn_number=number,
            em_emotion_tags=_value(om, "emotion_tags"),
            em_drafted_response=_value(draft, "response"),
            response_reasoning=_value(draft, "response_reasoning"),
            emotion_reasoning=_value(om, "emotion_reasoning"),
            pairwise_assignment=self.presentation.assignment(),
            # {} (not None) when a call failed: the call type was part of the run, the EM
            # answered nothing, and the scorer counts its missing answers as "no".
            em_binary_om_assessment=_value(om, "om_assessment") or {},
            em_binary_human_prediction=_value(om, "human_prediction") or {},
            em_binary_om_assessment_hp=_value(hp, "observed") or {},
            em_binary_human_prediction_hp=_value(hp, "preferred") or {},
            em_pairwise_selections=self.presentation.selections(
                _value(pairwise, "selections") or {}
            ),
            em_draft_judge_scores=combined,
            em_draft_judge_scores_by_model=scores if self.judged else None,
            em_draft_binary_assessment=majority(behaviour) if self.judged else None,
            em_draft_binary_assessment_by_model=behaviour if self.judged else None,
            judge_reply_assessment_by_model=assessed if self.judged else None,
            other=self._reasoning(hp, pairwise),
        )

    @property
    def judged(self) -> bool:
        return bool(self.judges)

    def _reasoning(self, hp: Answer | None, pairwise: Answer | None) -> dict[str, Any]:
        if not self.verbose:
            return {}
        found = {
            "hp_review_reasoning": _value(hp, "reasoning"),
            "pairwise_reasoning": _value(pairwise, "reasoning"),
        }
        return {key: text for key, text in found.items() if text is not None}


class _Unit:
    def __init__(
        self,
        conversation: Conversation,
        model: EndpointConfig,
        mode: str,
        options: RunOptions,
        executor: CallExecutor,
        priority: int,
    ) -> None:
        self.conversation = conversation
        self.model = model
        self.options = options
        self.executor = executor
        self.priority = priority
        self.prompts = options.prompts
        self.verbose = mode in ("verbose", "verbose_omniscient")
        self.omniscient = mode in ("omniscient", "verbose_omniscient")
        # Every request says the conversation's language (prompt sets from v2 on); the system
        # prompts stay the same for every conversation, so their hashes name them in a report.
        self.language = conversation_language(conversation)
        self.system = self.prompts.render("system", placeholder=self.prompts.render("placeholder"))
        context = calls.omniscient_context(self.prompts, conversation) if self.omniscient else ""
        self.thread = ConversationThread(self.prompts, self.system, context)

    def start_turn(self, group: asyncio.TaskGroup, index: int, turn: Turn) -> _TurnTasks:
        """Build this turn's messages (in order: the thread grows turn by turn) and start its
        calls. Rank (unit, turn, call) finishes units and turns in order."""
        instrument, verbose = self.options.instrument, self.verbose
        language = self.language
        draft = calls.draft(
            self.prompts,
            turn,
            context=self.thread.context_for(turn),
            verbose=verbose,
            language=language,
        )
        draft_messages = self.thread.for_draft(draft.text)
        review = calls.review(
            self.prompts, turn, instrument, participant=False, verbose=verbose, language=language
        )
        review_messages = self.thread.for_review(turn, review.text)
        self.thread.close_turn(turn)

        def rank(call: int) -> tuple[int, ...]:
            return (self.priority, index, call)

        hp_task = pairwise_task = None
        reply_judges: list[tuple[str, asyncio.Task[Answer]]] = []
        if calls.applicable_question_ids(turn):
            hp = calls.review(
                self.prompts, turn, instrument, participant=True, verbose=verbose, language=language
            )
            hp_task = group.create_task(self._ask(self._standalone(hp.text), hp, rank(2)))
            reply_judges = self._judge_replies(group, turn, rank(5))
        presentation = present(
            turn,
            conversation_id=self.conversation.conversation_id,
            seed=self.options.pairwise_seed,
            shuffle=self.options.shuffle_pairwise,
        )
        if presentation.comparisons:
            shown = calls.pairwise(
                self.prompts, turn, instrument, presentation, verbose=verbose, language=language
            )
            pairwise_task = group.create_task(
                self._ask(self._standalone(shown.text), shown, rank(3))
            )
        return _TurnTasks(
            turn=turn,
            verbose=verbose,
            judges=tuple(judge.model for judge in self.options.judges),
            draft=group.create_task(self._draft_and_judges(turn, draft_messages, draft, rank)),
            om_review=group.create_task(self._ask(review_messages, review, rank(1))),
            hp_review=hp_task,
            pairwise=pairwise_task,
            presentation=presentation,
            reply_judges=reply_judges,
        )

    def _judge_replies(
        self, group: asyncio.TaskGroup, turn: Turn, rank: tuple[int, ...]
    ) -> list[tuple[str, asyncio.Task[Answer]]]:
        """Each judge answers the behaviour questions about the original reply and the
        participant's edited reply (when there is one)."""
        tasks = []
        for reply, text in _judged_replies(turn).items():
            request = calls.reply_judge(
                self.prompts,
                turn,
                self.options.instrument,
                text,
                edited=reply != "original",
                language=self.language,
            )
            messages = [
                {"role": "system", "content": self.prompts.render("judge_system")},
                {"role": "user", "content": request.text},
            ]
            for judge in self.options.judges:
                task = group.create_task(self._ask(messages, request, rank, spec=judge))
                tasks.append((reply, task))
        return tasks

    async def ask_post(self) -> Answer:
        request = calls.post_conversation(
            self.prompts,
            self.conversation,
            self.options.instrument,
            strategy=self.options.panas_strategy,
            verbose=self.verbose,
            language=self.language,
        )
        rank = (self.priority, len(self.conversation.turns), 0)
        return await self._ask(self.thread.for_post(request.text), request, rank)

    def post_output(self, answer: Answer, log: AnswerLog) -> PostConversationOutput:
        log.add(answer, None)
        strategy = self.options.panas_strategy
        shown = calls.pre_panas_shown(
            self.conversation, strategy=strategy, omniscient=self.omniscient
        )
        if answer.value is None:
            return PostConversationOutput(panas_strategy=strategy, pre_panas_shown=shown)
        value = answer.value
        delta = strategy != "absolute"
        panas_key = "predicted_panas_delta" if delta else "predicted_post_panas"
        predicted = PredictedPanas(items=dict(value[panas_key]["items"]))
        reasoning = value.get("reasoning")
        return PostConversationOutput(
            panas_strategy=strategy,
            pre_panas_shown=shown,
            predicted_post_panas=None if delta else predicted,
            predicted_panas_delta=predicted if delta else None,
            predicted_conversation_wide=PredictedConversationWide(
                q1_looking_for=value["q1_lookingFor"],
                q2_emotion_clarity=value["q2_emotionClarity"],
                q3_model_fit=value["q3_modelFit"],
                q3_follow_up_what_felt_off=value["q3_followUp_whatFeltOff"],
                four_branch_scores=dict(value["fourBranchScores"]),
            ),
            other={"reasoning": reasoning} if reasoning is not None else {},
        )

    async def _draft_and_judges(
        self,
        turn: Turn,
        messages: list[dict[str, str]],
        request: calls.Request,
        rank: Any,
    ) -> tuple[Answer, list[Answer]]:
        draft = await self._ask(messages, request, rank(0))
        if draft.value is None or not self.options.judges:
            return draft, []
        judged = calls.draft_judge(
            self.prompts,
            turn,
            self.options.instrument,
            draft.value["response"],
            language=self.language,
        )
        judge_messages = [
            {"role": "system", "content": self.prompts.render("judge_system")},
            {"role": "user", "content": judged.text},
        ]
        async with asyncio.TaskGroup() as group:  # a failing judge cancels its siblings
            judges = [
                group.create_task(self._ask(judge_messages, judged, rank(4), spec=judge))
                for judge in self.options.judges
            ]
        return draft, [task.result() for task in judges]

    def _standalone(self, text: str) -> list[dict[str, str]]:
        """Outside the thread: the system prompt and this one request."""
        return [{"role": "system", "content": self.system}, {"role": "user", "content": text}]

    def _ask(
        self,
        messages: list[dict[str, str]],
        request: calls.Request,
        rank: tuple[int, ...],
        *,
        spec: EndpointConfig | None = None,
    ) -> Coroutine[Any, Any, Answer]:
        return ask(
            self.executor,
            spec or self.model,
            messages,
            request.schema,
            self.prompts,
            max_reasks=self.options.max_reasks,
            rank=rank,
        )


def _first_leaf(error: BaseException) -> BaseException:
    """The first exception of a (possibly nested) exception group."""
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


def _value(answer: Answer | None, key: str) -> Any:
    if answer is None or answer.value is None:
        return None
    return answer.value.get(key)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


__all__ = [
    "MODES",
    "PANAS_STRATEGIES",
    "FatalModelError",
    "RunOptions",
    "check_mode",
    "judged_reply_calls",
    "planned_calls",
    "run_unit",
]
