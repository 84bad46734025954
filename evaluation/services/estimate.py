"""What a run will cost before it starts: calls (exact) and dollars (estimated, or "unknown").

Calls come from the engine's ``planned_calls`` (every answer parsing the first time). Tokens per
call are measured on a sample (``evaluation.sizing``), prices come from litellm's list
(``evaluation.prices``). A model without a listed price makes the total unknown; the priced part
is still shown, never a made-up number for the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from annotations.models import ModelEndpoint
from attunebench.release import SourcedConversation
from attunebench.runner import RunOptions, judged_reply_calls, planned_calls
from evaluation.prices import model_price
from evaluation.sizing import CallSize, ModeSizes, mode_sizes, sample_files

BASIS = (
    "calls: planned_calls (no re-asks); tokens: the run's real prompts on {sample} sample "
    "conversation(s) per mode, with answers of the expected JSON shape, at 4 characters per "
    "token; prices: litellm's bundled price list (none listed: unknown)"
)


@dataclass(frozen=True)
class EstimateRow:
    endpoint: str  # the registry alias
    model: str  # the litellm model string
    role: str  # "model" (under test) or "judge"
    calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None  # None: litellm lists no price for the model


@dataclass(frozen=True)
class CostEstimate:
    rows: tuple[EstimateRow, ...]
    calls: int
    cost_usd: float | None  # None when any row's price is unknown
    known_cost_usd: float  # the priced rows' sum
    basis: str

    def to_json(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "cost_usd": self.cost_usd,
            "known_cost_usd": self.known_cost_usd,
            "basis": self.basis,
            "rows": [asdict(row) for row in self.rows],
        }


@dataclass
class _Count:
    calls: int = 0
    prompt_tokens: float = 0.0
    completion_tokens: float = 0.0

    def add(self, calls: int, size: CallSize) -> None:
        self.calls += calls
        self.prompt_tokens += calls * size.prompt_tokens
        self.completion_tokens += calls * size.completion_tokens


def estimate_cost(
    *,
    folder: str | Path,
    conversations: Sequence[SourcedConversation],
    models: Sequence[ModelEndpoint],
    judges: Sequence[ModelEndpoint],
    modes: Sequence[str],
    options: RunOptions,
) -> CostEstimate:
    files = sample_files(sorted(item.source_file for item in conversations))
    sizes: dict[str, ModeSizes] = {
        mode: mode_sizes(
            str(folder), files, mode, options.panas_strategy, len(judges), options.prompt_set
        )
        for mode in modes
    }
    per_model, per_judge = _Count(), _Count()  # for one model under test / one judge
    for index, mode in enumerate(modes):
        for item in conversations:
            turns = len(item.conversation.turns)
            judge_calls = turns if judges else 0
            # Judging the original and edited replies is the same request in every unit and
            # mode: the first unit asks, the call cache answers the others.
            reply_calls = judged_reply_calls(item.conversation) if judges else 0
            per_model.add(
                planned_calls(item.conversation, options)
                - len(judges) * (judge_calls + reply_calls),
                sizes[mode].model,
            )
            per_judge.add(
                judge_calls * len(models) + (reply_calls if index == 0 else 0), sizes[mode].judge
            )
    rows = [_row(endpoint, "model", per_model) for endpoint in models]
    rows += [_row(endpoint, "judge", per_judge) for endpoint in judges]
    costs = [row.cost_usd for row in rows]
    known = sum(cost for cost in costs if cost is not None)
    return CostEstimate(
        rows=tuple(rows),
        calls=sum(row.calls for row in rows),
        cost_usd=None if None in costs else known,
        known_cost_usd=known,
        basis=BASIS.format(sample=len(files)),
    )


def _row(endpoint: ModelEndpoint, role: str, count: _Count) -> EstimateRow:
    price = model_price(endpoint.litellm_model)
    return EstimateRow(
        endpoint=endpoint.alias,
        model=endpoint.litellm_model,
        role=role,
        calls=count.calls,
        prompt_tokens=round(count.prompt_tokens),
        completion_tokens=round(count.completion_tokens),
        cost_usd=None
        if price is None
        else price.cost(count.prompt_tokens, count.completion_tokens),
    )
