"""How many tokens a call of a run carries, measured by a dry run of the engine on a sample.

Counting calls is exact (``planned_calls``); tokens are not knowable before the models answer.
So the engine runs a few of the run's conversations against an offline answerer that writes
answers of the requested JSON shape (the demo provider's), and we measure what it sent and got:
the prompts are the run's real prompts (same templates, thread, mode and PANAS strategy), the
answers are of the expected shape. Tokens are characters / 4, the engine's own rule of thumb
(no tokenizer download offline). Re-asks are not included.

Pure: no Django. Results are cached per (release folder, sample, mode, options).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from attune_collect.llm import Completion, EndpointConfig, LLMGateway
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.reader import read_conversation_file
from attunebench.release import conversation_folder
from attunebench.runner import RunOptions, run_unit
from attunebench.token_limits import CHARS_PER_TOKEN

SAMPLE_SIZE = 3
ANSWERER = "attune-demo/listener"  # writes answers shaped like the prompt's JSON template
SIZED_MODEL = "sizing/model"
SIZED_JUDGE = "sizing/judge"


@dataclass(frozen=True)
class CallSize:
    """Average tokens of one call."""

    prompt_tokens: float = 0.0
    completion_tokens: float = 0.0


@dataclass(frozen=True)
class ModeSizes:
    model: CallSize  # a call to the model under test
    judge: CallSize  # a call to a judge (zeros without judges)


def sample_files(files: Sequence[str], size: int = SAMPLE_SIZE) -> tuple[str, ...]:
    """Evenly spread over the (sorted) files, so short and long conversations both count."""
    if len(files) <= size:
        return tuple(files)
    last = len(files) - 1
    return tuple(files[round(i * last / (size - 1))] for i in range(size))


@dataclass
class _Tally:
    calls: int = 0
    prompt_chars: int = 0
    completion_chars: int = 0

    def size(self) -> CallSize:
        if not self.calls:
            return CallSize()
        per_call = self.calls * CHARS_PER_TOKEN
        return CallSize(self.prompt_chars / per_call, self.completion_chars / per_call)


class _SizingGateway(LLMGateway):
    """Answers every call offline and measures it, per role (model under test or judge)."""

    def __init__(self) -> None:
        super().__init__()
        self.tallies: dict[str, _Tally] = {SIZED_MODEL: _Tally(), SIZED_JUDGE: _Tally()}

    async def complete(
        self, endpoint: EndpointConfig, messages: Sequence[Mapping[str, Any]], **params: Any
    ) -> Completion:
        from attune_collect.llm.demo_provider import build_demo_reply  # imports litellm

        text = build_demo_reply(ANSWERER, messages).text
        tally = self.tallies[endpoint.model]
        tally.calls += 1
        tally.prompt_chars += sum(len(str(m.get("content", ""))) for m in messages)
        tally.completion_chars += len(text)
        return Completion(
            text=text,
            finish_reason="stop",
            prompt_tokens=0,
            completion_tokens=0,
            cost_usd=0.0,
            latency_ms=0.0,
            model=endpoint.model,
            attempts=1,
        )


@lru_cache(maxsize=128)
def mode_sizes(
    folder: str,
    files: tuple[str, ...],
    mode: str,
    panas_strategy: str,
    judges: int,
    prompt_set: str,
) -> ModeSizes:
    """Average call sizes of ``mode`` on the sample ``files`` of the release at ``folder``."""
    conversations = [read_conversation_file(conversation_folder(Path(folder)) / f) for f in files]
    options = RunOptions(
        panas_strategy=panas_strategy,
        judges=tuple(EndpointConfig(SIZED_JUDGE) for _ in range(min(judges, 1))),
        prompt_set=prompt_set,
    )
    gateway = _SizingGateway()

    async def run_sample() -> None:
        executor = CallExecutor(MemoryCallCache(), gateway)
        for conversation in conversations:
            await run_unit(conversation, EndpointConfig(SIZED_MODEL), mode, options, executor)

    asyncio.run(run_sample())
    return ModeSizes(
        model=gateway.tallies[SIZED_MODEL].size(), judge=gateway.tallies[SIZED_JUDGE].size()
    )
