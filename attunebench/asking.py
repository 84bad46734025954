"""One logical question to a model: ask, parse, repair where safe, re-ask a bounded number of
times, and report the outcome with the raw text of every attempt (never raise, never drop).

A re-ask shows the model its own bad answer, says what was wrong with it and repeats the
template. It is a different request (the messages differ), so its answer is cached under its
own key and a replay of the run goes through exactly the same attempts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from attune_collect.llm import EndpointConfig, GatewayError
from attunebench.executor import REFUSAL_KINDS, CallExecutor
from attunebench.parsing import parse_answer
from attunebench.prompts import PromptSet
from attunebench.schemas import Schema
from attunebench.slots import Rank

DEFAULT_MAX_REASKS = 2


class FatalModelError(Exception):
    """The model cannot be called at all (bad key, bad configuration): stop its units."""

    def __init__(self, model: str, error: GatewayError) -> None:
        super().__init__(f"{model}: {error}")
        self.model = model
        self.error = error


@dataclass(frozen=True)
class Answer:
    """The outcome of one logical call (its attempts included)."""

    call_type: str
    model: str
    value: dict[str, Any] | None
    raw_texts: tuple[str, ...] = ()
    error: str | None = None  # why the last attempt's text was unusable
    call_error: GatewayError | None = None  # the call itself failed (after the gateway's retries)
    repaired: bool = False
    made: int = 0  # requests sent now
    cached: int = 0  # attempts served by the cache
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    @property
    def ok(self) -> bool:
        return self.value is not None

    @property
    def attempts(self) -> int:
        return len(self.raw_texts) + (1 if self.call_error is not None else 0)


async def ask(
    executor: CallExecutor,
    spec: EndpointConfig,
    messages: Sequence[Mapping[str, Any]],
    schema: Schema,
    prompts: PromptSet,
    *,
    max_reasks: int = DEFAULT_MAX_REASKS,
    rank: Rank = (),
) -> Answer:
    """Ask until the answer fits ``schema`` or ``max_reasks`` re-asks are used up."""
    conversation = [dict(message) for message in messages]
    raw_texts: list[str] = []
    totals = {"made": 0, "cached": 0, "prompt_tokens": 0, "completion_tokens": 0}
    cost = 0.0
    error: str | None = None
    repaired = False
    for attempt in range(max_reasks + 1):
        try:
            result = await executor.complete(spec, conversation, rank=rank)
        except GatewayError as exc:
            if exc.kind in REFUSAL_KINDS:
                raise FatalModelError(spec.model, exc) from None
            return Answer(
                schema.call_type,
                spec.model,
                None,
                tuple(raw_texts),
                error,
                exc,
                repaired,
                cost_usd=cost,
                **totals,
            )
        raw_texts.append(result.text)
        totals["cached" if result.cached else "made"] += 1
        totals["prompt_tokens"] += result.prompt_tokens
        totals["completion_tokens"] += result.completion_tokens
        cost += result.cost_usd
        parsed = parse_answer(result.text, schema)
        repaired = repaired or parsed.repaired
        if parsed.ok:
            return Answer(
                schema.call_type,
                spec.model,
                parsed.value,
                tuple(raw_texts),
                None,
                None,
                repaired,
                cost_usd=cost,
                **totals,
            )
        error = parsed.error
        if attempt < max_reasks:
            conversation += [
                {"role": "assistant", "content": result.text},
                {
                    "role": "user",
                    "content": prompts.render(
                        "reask", error=error, template=schema.template_text()
                    ),
                },
            ]
    return Answer(
        schema.call_type,
        spec.model,
        None,
        tuple(raw_texts),
        error,
        None,
        repaired,
        cost_usd=cost,
        **totals,
    )
