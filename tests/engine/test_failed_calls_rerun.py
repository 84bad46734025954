"""A unit whose calls failed is written (the run completes) but not taken as finished: the
next invocation runs it again, and only the failed calls reach the model again."""

from attune_collect.llm import EndpointConfig, GatewayError
from attunebench.batch import plan_units, run_batch
from attunebench.cache import SQLiteCallCache
from attunebench.executor import CallExecutor
from attunebench.release import load_conversations
from attunebench.run_output import read_run_output_file
from attunebench.runner import RunOptions
from tests.engine.conftest import FakeGateway


async def test_only_failed_calls_are_made_again(release_dir, tmp_path):
    conversations = load_conversations(release_dir, "sample2")
    units = plan_units(conversations, [EndpointConfig("fake/em")], ["default"], tmp_path / "runs")
    cache_path = tmp_path / "cache.sqlite3"
    gateway = FakeGateway()
    gateway.failures = {n: GatewayError("rate_limited", "slow down", attempts=4) for n in (3, 17)}

    first = await run_batch(units, RunOptions(), CallExecutor(SQLiteCallCache(cache_path), gateway))
    assert first.groups[("fake/em", "default")].call_errors == 2
    made_first = len(gateway.requests)

    gateway.failures = {}
    second = await run_batch(
        units, RunOptions(), CallExecutor(SQLiteCallCache(cache_path), gateway)
    )
    group = second.groups[("fake/em", "default")]
    assert group.call_errors == 0 and group.reused + group.run_now == len(units)
    assert group.run_now in (1, 2)  # the units that had a failure
    assert len(gateway.requests) - made_first == 2  # just the two failed calls
    third = await run_batch(units, RunOptions(), CallExecutor(SQLiteCallCache(cache_path), gateway))
    assert third.groups[("fake/em", "default")].reused == len(units)
    assert all(not read_run_output_file(u.path).other["call_errors"] for u in units)
