"""A run killed at any point resumes where it stopped, and no answered call is made again:
the server counts the requests of an interrupted-and-resumed run and of an uninterrupted one."""

import asyncio
import json

import pytest

from attune_collect.llm import EndpointConfig
from attunebench.batch import plan_units, run_batch
from attunebench.cache import SQLiteCallCache
from attunebench.executor import CallExecutor
from attunebench.release import load_conversations
from attunebench.run_output import read_run_output_file, run_output_to_dict
from attunebench.runner import RunOptions
from tests.engine.conftest import KEY_ENV, server_json_reply


def bodies(server):
    return [json.dumps(body["messages"], sort_keys=True) for body in server.behaviour.requests]


def restart(server):
    server.behaviour.reset()
    server.behaviour.reply = server_json_reply


def comparable(path):
    data = run_output_to_dict(read_run_output_file(path))
    for key in ("run_timestamp", "duration_seconds", "usage"):  # usage: made now or cached
        data.pop(key)
    return data


async def run(units, cache_path):
    cache = SQLiteCallCache(cache_path)
    try:
        return await run_batch(units, RunOptions(), CallExecutor(cache))
    finally:
        cache.close()


async def test_killed_run_resumes_without_repeating_answered_calls(
    json_server, release_dir, tmp_path
):
    conversations = load_conversations(release_dir, "sample2")
    # One call in flight: when the run is killed, exactly one request is unanswered.
    spec = EndpointConfig(
        "openai/test-model", api_base=json_server.base_url, api_key_env=KEY_ENV, max_concurrency=1
    )
    modes = ["default", "omniscient"]

    whole = plan_units(conversations, [spec], modes, tmp_path / "whole")
    await run(whole, tmp_path / "whole.sqlite3")
    uninterrupted = json_server.request_count

    restart(json_server)
    killed_at = uninterrupted // 2
    json_server.behaviour.ok(killed_at).stall(30)  # request killed_at + 1 hangs: kill then
    units = plan_units(conversations, [spec], modes, tmp_path / "resumed")
    task = asyncio.create_task(run(units, tmp_path / "resumed.sqlite3"))
    async with asyncio.timeout(30):
        while json_server.request_count <= killed_at:
            await asyncio.sleep(0.005)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    first_half = bodies(json_server)
    assert len(first_half) == killed_at + 1
    finished = [u for u in units if u.path.exists()]
    assert 0 < len(finished) < len(units)  # killed in the middle, outputs are whole files
    assert all(read_run_output_file(u.path).turns for u in finished)

    restart(json_server)
    result = await run(units, tmp_path / "resumed.sqlite3")
    resumed = bodies(json_server)

    assert sum(g.reused for g in result.groups.values()) == len(finished)
    assert len(first_half) + len(resumed) == uninterrupted + 1
    assert set(resumed).isdisjoint(first_half[:-1])  # no answered call is made again...
    assert first_half[-1] in resumed  # ...only the one the kill left unanswered
    for done, reference in zip(units, whole, strict=True):
        assert comparable(done.path) == comparable(reference.path)
