"""The real thing: the ``run`` command killed with SIGKILL mid-run, then started again. Finished
units are reused, half-done ones replay from the cache, and the server sees no answered call
twice (its request count matches an uninterrupted run plus the one call the kill cut off)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from attune_collect.llm import EndpointConfig
from attunebench.batch import plan_units, run_batch
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.release import load_conversations
from attunebench.run_output import read_run_output_file
from attunebench.runner import RunOptions
from tests.engine.conftest import KEY_ENV, server_json_reply

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # two fresh engine processes (litellm import each)


def command(release_dir, server, out):
    return [
        sys.executable,
        "-m",
        "attunebench",
        "run",
        "--data",
        str(release_dir),
        "--model",
        "openai/test-model",
        "--api-base",
        server.base_url,
        "--api-key-env",
        KEY_ENV,
        "--concurrency",
        "1",
        "--subsample",
        "sample2",
        "--no-progress",
        "--out",
        str(out),
    ]


def bodies(server):
    return [json.dumps(body["messages"], sort_keys=True) for body in server.behaviour.requests]


async def test_sigkill_then_rerun(json_server, release_dir, tmp_path):
    spec = EndpointConfig(
        "openai/test-model", api_base=json_server.base_url, api_key_env=KEY_ENV, max_concurrency=1
    )
    reference = plan_units(
        load_conversations(release_dir, "sample2"), [spec], ["default"], tmp_path / "reference"
    )
    await run_batch(reference, RunOptions(), CallExecutor(MemoryCallCache()))
    uninterrupted = json_server.request_count

    json_server.behaviour.reset()
    json_server.behaviour.reply = server_json_reply
    killed_at = uninterrupted * 2 // 3
    json_server.behaviour.ok(killed_at).stall(60)
    out = tmp_path / "runs"
    process = subprocess.Popen(
        command(release_dir, json_server, out), cwd=ROOT, env=os.environ.copy()
    )
    deadline = time.monotonic() + 60
    while json_server.request_count <= killed_at and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    first = bodies(json_server)
    assert len(first) == killed_at + 1

    json_server.behaviour.reset()
    json_server.behaviour.reply = server_json_reply
    rerun = subprocess.run(
        command(release_dir, json_server, out),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert rerun.returncode == 0, rerun.stderr
    second = bodies(json_server)

    assert len(first) + len(second) == uninterrupted + 1
    assert set(second).isdisjoint(first[:-1]) and first[-1] in second
    for unit in reference:
        resumed = read_run_output_file(out / unit.path.name)
        assert resumed.turns == read_run_output_file(unit.path).turns
