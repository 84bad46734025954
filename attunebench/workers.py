"""``run --workers N``: one run over N engine processes on this machine.

One process spends most of a call's CPU in litellm (about 3.5 ms a call here), and answers
come back in bursts (every call in flight was sent about one latency ago), so with hundreds of
calls in flight a single event loop becomes the bottleneck. N processes share the work:

- units are dealt out by (model, conversation) pair, round robin, so every mode of a pair is in
  one process (their identical out-of-thread calls are joined in flight there);
- each process gets its share of every per-model limit (calls in flight, requests and tokens
  per minute), so the totals hold across the processes;
- all share the SQLite call cache and the output folder (both safe for several processes);
- each worker prints JSON lines on stdout (planned calls, progress, its summary); the parent
  draws one progress bar and one summary table.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TextIO

from attunebench.batch import BatchResult, GroupSummary, Unit
from attunebench.executor import CallEvent, ModelUsage
from attunebench.progress import ProgressBar

Shard = tuple[int, int]  # (index, count)


def parse_shard(text: str) -> Shard:
    index, _, count = text.partition("/")
    shard = (int(index), int(count))
    if not 0 <= shard[0] < shard[1]:
        raise ValueError(f"bad shard {text!r}: expected INDEX/COUNT with 0 <= INDEX < COUNT")
    return shard


def shard_units(units: Sequence[Unit], shard: Shard) -> list[Unit]:
    pairs = dict.fromkeys((u.model.model, u.item.conversation.conversation_id) for u in units)
    number = {pair: position for position, pair in enumerate(pairs)}
    index, count = shard
    return [
        u
        for u in units
        if number[(u.model.model, u.item.conversation.conversation_id)] % count == index
    ]


def share(total: int | None, shard: Shard) -> int | None:
    """This worker's part of a limit; the parts add up to the total (at least 1 each)."""
    if total is None:
        return None
    index, count = shard
    return max(1, total // count + (1 if index < total % count else 0))


# --- the worker side --------------------------------------------------------------------------


class WorkerReport:
    """A worker's stdout: {"planned"}, then {"progress"} at most every ``interval_s``, then
    {"summary"}. Cumulative counts, so a lost line costs nothing."""

    def __init__(self, stream: TextIO | None = None, interval_s: float = 0.2) -> None:
        self._stream = stream if stream is not None else sys.stdout
        self._interval = interval_s
        self._last = float("-inf")
        self._counts = {"done": 0, "cached": 0, "failed": 0, "cost_usd": 0.0}

    def planned(self, calls: int) -> None:
        self._emit({"planned": calls})

    def on_call(self, event: CallEvent) -> None:
        counts = self._counts
        counts["done"] += 1
        counts["cached"] += event.cached
        counts["failed"] += not event.ok
        counts["cost_usd"] += event.cost_usd
        if time.monotonic() - self._last >= self._interval:
            self._progress()

    def summary(self, result: BatchResult, usage: dict[str, ModelUsage]) -> None:
        self._progress()
        groups = [[model, mode, asdict(group)] for (model, mode), group in result.groups.items()]
        usage_data = {model: asdict(item) for model, item in usage.items()}
        self._emit({"summary": {"groups": groups, "usage": usage_data, "fatal": result.fatal}})

    def _progress(self) -> None:
        self._last = time.monotonic()
        self._emit({"progress": self._counts})

    def _emit(self, message: dict[str, Any]) -> None:
        self._stream.write(json.dumps(message) + "\n")
        self._stream.flush()


# --- the parent side --------------------------------------------------------------------------


@dataclass
class _Merged:
    planned: dict[int, int] = field(default_factory=dict)
    progress: dict[int, dict[str, Any]] = field(default_factory=dict)
    summaries: dict[int, dict[str, Any]] = field(default_factory=dict)


def run_workers(
    argv: Sequence[str], count: int, progress: ProgressBar | None
) -> tuple[BatchResult, dict[str, ModelUsage], list[str]]:
    """Run ``argv`` (a ``run`` command line) in ``count`` worker processes and merge them.

    Returns the merged result, the merged usage, and a message per worker that failed.
    """
    started = time.perf_counter()
    merged = _Merged()
    lock = threading.Lock()
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "attunebench", *worker_argv(argv, (index, count))],
            stdout=subprocess.PIPE,
            text=True,
        )
        for index in range(count)
    ]

    def read(index: int, stream: TextIO) -> None:
        for line in stream:
            try:
                message = json.loads(line)
            except ValueError:
                continue  # not ours (a library printing to stdout)
            with lock:
                if "planned" in message:
                    merged.planned[index] = message["planned"]
                elif "progress" in message:
                    merged.progress[index] = message["progress"]
                elif "summary" in message:
                    merged.summaries[index] = message["summary"]
                if progress is not None:
                    _show(progress, merged)

    readers = [
        threading.Thread(target=read, args=(index, process.stdout), daemon=True)
        for index, process in enumerate(processes)
    ]
    for reader in readers:
        reader.start()
    codes = [process.wait() for process in processes]
    for reader in readers:
        reader.join()
    failures = [
        f"worker {index} exited with {code} without a summary"
        for index, code in enumerate(codes)
        if index not in merged.summaries
    ]
    result, usage = _merge(merged.summaries[index] for index in sorted(merged.summaries))
    result.wall_s = time.perf_counter() - started
    return result, usage, failures


def worker_argv(argv: Sequence[str], shard: Shard) -> list[str]:
    """The parent's command line without ``--workers``, plus this worker's ``--shard``."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--workers":
            skip = True
        elif not arg.startswith("--workers="):
            kept.append(arg)
    return [*kept, "--shard", f"{shard[0]}/{shard[1]}"]


def _show(progress: ProgressBar, merged: _Merged) -> None:
    progress.total = sum(merged.planned.values())
    workers = merged.progress.values()
    progress.show(
        done=sum(counts.get("done", 0) for counts in workers),
        cached=sum(counts.get("cached", 0) for counts in workers),
        failed=sum(counts.get("failed", 0) for counts in workers),
        cost_usd=sum((counts.get("cost_usd", 0) for counts in workers), 0.0),
    )


def _merge(summaries: Any) -> tuple[BatchResult, dict[str, ModelUsage]]:
    result = BatchResult()
    usage: dict[str, ModelUsage] = {}
    for summary in summaries:
        for model, mode, data in summary["groups"]:
            group = result.groups.setdefault((model, mode), GroupSummary())
            for name, value in data.items():
                setattr(group, name, getattr(group, name) + value)
        for model, data in summary["usage"].items():
            total = usage.setdefault(model, ModelUsage())
            for name, value in data.items():
                setattr(total, name, getattr(total, name) + value)
        for model, error in summary["fatal"].items():
            result.fatal.setdefault(model, error)
    return result, usage
