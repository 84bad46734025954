"""A model that cannot be called at all (bad key, bad configuration) stops its own units after
the first refusal instead of failing every call of the run; the other models carry on."""

from attune_collect.llm import EndpointConfig, GatewayError
from attunebench.batch import plan_units, run_batch
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.release import load_conversations
from attunebench.runner import RunOptions
from tests.engine.conftest import FakeGateway, demo_json_reply


def refuse_one_model(model, messages):
    if model == "fake/locked":
        raise GatewayError("auth", "endpoint 'fake/locked': invalid API key", retryable=False)
    return demo_json_reply(messages)


async def test_an_auth_error_stops_only_that_model(release_dir, tmp_path):
    conversations = load_conversations(release_dir)
    models = [EndpointConfig("fake/locked", max_concurrency=1), EndpointConfig("fake/open")]
    units = plan_units(conversations, models, ["default"], tmp_path)
    gateway = FakeGateway(refuse_one_model)

    result = await run_batch(units, RunOptions(), CallExecutor(MemoryCallCache(), gateway))

    assert result.fatal == {
        "fake/locked": "[auth] endpoint 'fake/locked': invalid API key (attempts: 1)"
    }
    locked, open_ = (
        result.groups[("fake/locked", "default")],
        result.groups[("fake/open", "default")],
    )
    assert locked.run_now == 0 and locked.not_run == len(conversations)
    assert open_.run_now == len(conversations)
    assert not any(u.path.exists() for u in units if u.model.model == "fake/locked")
    # asked once: after a refusal the executor fails its calls without asking again
    assert sum(1 for model, _ in gateway.requests if model == "fake/locked") == 1


async def test_a_refused_judge_stops_the_run(release_dir, tmp_path):
    conversations = load_conversations(release_dir, "sample2")
    units = plan_units(conversations, [EndpointConfig("fake/open")], ["default"], tmp_path)
    options = RunOptions(judges=(EndpointConfig("fake/open"), EndpointConfig("fake/locked")))
    gateway = FakeGateway(refuse_one_model)

    result = await run_batch(units, options, CallExecutor(MemoryCallCache(), gateway))

    assert set(result.fatal) == {"fake/locked"}
    assert result.groups[("fake/open", "default")].not_run == len(units)
