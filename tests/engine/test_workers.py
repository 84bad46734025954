"""``run --workers N``: units dealt out by (model, conversation) so all modes of a pair share
a process, limits split so the totals hold, and the workers' reports merged into one."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from attune_collect.llm import EndpointConfig
from attunebench.batch import BatchResult, GroupSummary, plan_units
from attunebench.executor import CallEvent, ModelUsage
from attunebench.release import load_conversations
from attunebench.workers import (
    WorkerReport,
    _merge,
    parse_shard,
    shard_units,
    share,
    worker_argv,
)

ROOT = Path(__file__).resolve().parents[2]


def test_units_are_dealt_by_model_and_conversation(release_dir, tmp_path):
    conversations = load_conversations(release_dir)
    models = [EndpointConfig("m/one"), EndpointConfig("m/two")]
    units = plan_units(conversations, models, ["default", "verbose"], tmp_path)
    shards = [shard_units(units, (index, 2)) for index in range(2)]
    assert sorted(u.path for shard in shards for u in shard) == sorted(u.path for u in units)
    for shard in shards:
        pairs = {(u.model.model, u.item.conversation.conversation_id) for u in shard}
        assert len(shard) == 2 * len(pairs)  # both modes of every pair in the same worker
    assert abs(len(shards[0]) - len(shards[1])) <= 2


def test_limits_are_shared_out_and_the_command_line_passed_on():
    assert [share(64, (index, 3)) for index in range(3)] == [22, 21, 21]
    assert [share(1, (index, 2)) for index in range(2)] == [1, 1]  # never zero
    assert share(None, (0, 2)) is None
    assert parse_shard("1/4") == (1, 4)
    with pytest.raises(ValueError):
        parse_shard("4/4")
    argv = ["run", "--workers", "2", "--model", "m", "--workers=3", "--out", "o"]
    assert worker_argv(argv, (1, 2)) == ["run", "--model", "m", "--out", "o", "--shard", "1/2"]


def test_worker_reports_merge_into_one_summary():
    lines = []
    for index, cost in enumerate((0.25, 0.5)):
        stream = io.StringIO()
        report = WorkerReport(stream)
        report.planned(10)
        report.on_call(CallEvent("m/one", cached=index == 1, ok=True, cost_usd=cost))
        result = BatchResult(
            groups={("m/one", "default"): GroupSummary(units=2, run_now=2, calls=10)}
        )
        report.summary(result, {"m/one": ModelUsage(made=1 - index, cached=index, cost_usd=cost)})
        lines.append([json.loads(line) for line in stream.getvalue().splitlines()])
    assert lines[0][0] == {"planned": 10}
    assert lines[1][-2]["progress"] == {"done": 1, "cached": 1, "failed": 0, "cost_usd": 0.5}
    result, usage = _merge(messages[-1]["summary"] for messages in lines)
    assert result.groups[("m/one", "default")] == GroupSummary(units=4, run_now=4, calls=20)
    assert usage["m/one"] == ModelUsage(made=1, cached=1, cost_usd=0.75)


@pytest.mark.slow  # two worker processes, each importing litellm
def test_a_run_over_two_workers(release_dir, tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "attunebench",
            "run",
            "--data",
            str(release_dir),
            "--model",
            "attune-demo/listener",
            "--model",
            "attune-demo/advisor",
            "--workers",
            "2",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    assert len(list(tmp_path.glob("run_*__*.json"))) == 6
    assert done.stdout.startswith("6 units (3 conversations)")
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith("attune-demo/")]
    assert [row[2:5] for row in rows[:2]] == [["3", "3", "0"]] * 2  # units, run now, reused
    assert "calls" in done.stderr  # the merged progress bar
