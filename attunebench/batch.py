"""Running many units in one process: resume, a window of active units, atomic output files.

A unit whose output file already exists, matches the run's settings (the fingerprint) and
recorded no failed call is skipped, so a killed run resumes where it stopped: finished units
are not run again, and the calls of half-done units replay from the call cache. A unit with
failed calls (rate limits that outlasted the retries, timeouts) is run again on the next
invocation; only its failed calls reach the model again.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attune_collect.llm import EndpointConfig
from attunebench.asking import FatalModelError
from attunebench.executor import CallExecutor, ModelUsage
from attunebench.files import write_atomically
from attunebench.release import SourcedConversation
from attunebench.run_output import (
    RunOutput,
    call_counts,
    dumps_run_output,
    run_output_filename,
    run_output_from_dict,
)
from attunebench.runner import RunOptions, check_mode, planned_calls, run_unit
from attunebench.tables import Cell


@dataclass(frozen=True)
class Unit:
    item: SourcedConversation
    model: EndpointConfig
    mode: str
    path: Path


@dataclass
class GroupSummary:
    """One (model, mode): its units and what their outputs recorded."""

    units: int = 0
    run_now: int = 0
    reused: int = 0
    not_run: int = 0  # stopped by a fatal error of the model
    calls: int = 0
    failures: int = 0
    call_errors: int = 0
    api_cost: float = 0.0

    def add(self, output: RunOutput) -> None:
        calls, failures = call_counts(output.parse_failures)
        self.calls += calls
        self.failures += failures
        self.call_errors += len(output.other.get("call_errors") or [])
        self.api_cost += output.api_cost or 0.0


@dataclass
class BatchResult:
    groups: dict[tuple[str, str], GroupSummary] = field(default_factory=dict)
    fatal: dict[str, str] = field(default_factory=dict)  # model -> why it could not run
    wall_s: float = 0.0


def plan_units(
    conversations: Sequence[SourcedConversation],
    models: Sequence[EndpointConfig],
    modes: Sequence[str],
    out: Path,
) -> list[Unit]:
    """Model by model, mode by mode, conversation by conversation (the priority order)."""
    for mode in modes:
        check_mode(mode)
    return [
        Unit(
            item,
            model,
            mode,
            out / run_output_filename(item.conversation.conversation_id, model.model, mode),
        )
        for model in models
        for mode in modes
        for item in conversations
    ]


def finished_output(path: Path, fingerprint: dict[str, Any]) -> RunOutput | None:
    """The unit's output if it is complete and made with the same settings, else None."""
    try:
        output = run_output_from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None
    if output.other.get("engine") != fingerprint or output.other.get("call_errors"):
        return None
    return output


def pending_calls(units: Sequence[Unit], options: RunOptions) -> int:
    return sum(planned_calls(unit.item.conversation, options) for unit in units)


async def run_batch(
    units: Sequence[Unit],
    options: RunOptions,
    executor: CallExecutor,
    *,
    on_start: Callable[[int], None] | None = None,
) -> BatchResult:
    """Run (or reuse) every unit; ``on_start`` gets the number of calls planned for the units
    that actually run, before the first call."""
    started = time.perf_counter()
    result = BatchResult()
    todo: list[tuple[int, Unit]] = []
    for sequence, unit in enumerate(units):
        group = result.groups.setdefault((unit.model.model, unit.mode), GroupSummary())
        group.units += 1
        done = finished_output(unit.path, options.fingerprint(unit.model))
        if done is None:
            todo.append((sequence, unit))
        else:
            group.reused += 1
            group.add(done)
    if on_start is not None:
        on_start(pending_calls([unit for _, unit in todo], options))
    # Enough units active per model to keep its slots busy, few enough that they finish
    # steadily (each unit queues all its calls at once).
    windows = {
        unit.model.model: asyncio.Semaphore(max(2, unit.model.max_concurrency)) for _, unit in todo
    }

    async def run_one(sequence: int, unit: Unit) -> None:
        group = result.groups[(unit.model.model, unit.mode)]
        async with windows[unit.model.model]:
            stopped = {unit.model.model, *(judge.model for judge in options.judges)}
            if stopped & result.fatal.keys():
                group.not_run += 1
                return
            try:
                output = await run_unit(
                    unit.item.conversation,
                    unit.model,
                    unit.mode,
                    options,
                    executor,
                    source_file=unit.item.source_file,
                    priority=sequence,
                )
            except FatalModelError as exc:
                result.fatal.setdefault(exc.model, str(exc.error))
                group.not_run += 1
                return
        write_output(unit.path, output)
        group.run_now += 1
        group.add(output)

    async with asyncio.TaskGroup() as tasks:
        for sequence, unit in todo:
            tasks.create_task(run_one(sequence, unit))
    result.wall_s = time.perf_counter() - started
    return result


def write_output(path: Path, output: RunOutput) -> None:
    write_atomically(path, dumps_run_output(output).encode("utf-8"))


GROUP_HEADERS = (
    "model",
    "mode",
    "units",
    "run now",
    "reused",
    "not run",
    "answers",
    "failed",
    "call errors",
    "cost $",
)
USAGE_HEADERS = ("model", "requests", "cached", "errors", "tokens in", "tokens out", "spent $")


def group_rows(result: BatchResult) -> list[list[Cell]]:
    return [
        [
            model,
            mode,
            g.units,
            g.run_now,
            g.reused,
            g.not_run,
            g.calls,
            g.failures,
            g.call_errors,
            round(g.api_cost, 4),
        ]
        for (model, mode), g in result.groups.items()
    ]


def usage_rows(usage: dict[str, ModelUsage]) -> list[list[Cell]]:
    return [
        [
            model,
            u.made,
            u.cached,
            u.errors,
            u.prompt_tokens,
            u.completion_tokens,
            round(u.cost_usd, 4),
        ]
        for model, u in sorted(usage.items())
    ]
