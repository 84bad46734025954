"""Against the local OpenAI-compatible server (real HTTP through litellm): injected 429s, 500s,
timeouts and unparseable replies are all recorded in the run output, and the run completes."""

from dataclasses import replace

from attune_collect.llm import EndpointConfig, LLMGateway
from attune_collect.llm.testing.openai_server import BAD_JSON_REPLY
from attunebench.batch import plan_units, run_batch
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.release import load_conversations
from attunebench.run_output import read_run_output_file
from attunebench.runner import RunOptions, planned_calls
from tests.engine.conftest import KEY_ENV, server_json_reply


def unparseable_for_some_calls(body):
    """Turn 2's draft never parses (nor its re-asks); turn 3's OM review parses when re-asked."""
    last = body["messages"][-1]["content"]
    if "Write the reply" in last and "Turn 2." in last:
        return BAD_JSON_REPLY
    if "could not be used" in last and "<your reply to the participant>" in last:
        return BAD_JSON_REPLY
    if "Turn 3. This is what the original assistant replied" in last:
        return BAD_JSON_REPLY
    return server_json_reply(body)


async def test_faults_are_recorded_and_the_run_completes(json_server, release_dir, tmp_path):
    sleeps = []

    async def no_wait(seconds):
        sleeps.append(seconds)

    item = load_conversations(release_dir)[0]
    assert len(item.conversation.turns) >= 3
    spec = EndpointConfig(
        "openai/test-model",
        api_base=json_server.base_url,
        api_key_env=KEY_ENV,
        max_concurrency=1,
        timeout_s=0.3,
        max_retries=1,
    )
    # litellm's first call in a process is slow (lazy imports): not what the timeout is about.
    gateway = LLMGateway(sleep=no_wait)
    await gateway.complete(replace(spec, timeout_s=30), [{"role": "user", "content": "hi"}])
    before = json_server.request_count
    json_server.behaviour.reply = unparseable_for_some_calls
    # One call in flight: a call's attempts reach the server one after another, so the first
    # three calls get: a 429 and a retry that works; a 500 twice; a stall (timeout) twice.
    json_server.behaviour.rate_limit(retry_after=3).ok().server_error(times=2).stall(5, times=2)
    executor = CallExecutor(MemoryCallCache(), gateway)
    units = plan_units([item], [spec], ["default"], tmp_path / "runs")

    result = await run_batch(units, RunOptions(), executor)

    assert result.groups[(spec.model, "default")].run_now == 1
    output = read_run_output_file(units[0].path)
    errors = output.other["call_errors"]
    assert sorted(error["kind"] for error in errors) == ["timeout", "upstream_error"]
    assert all(error["attempts"] == 2 for error in errors)
    details = output.other["parse_failure_details"]
    assert [(d["call_type"], d["turnNumber"]) for d in details] == [("draft", 2)]
    assert details[0]["raw_texts"] == [BAD_JSON_REPLY] * 3  # the ask and two re-asks
    assert output.turns[1].em_drafted_response is None
    assert output.turns[2].em_emotion_tags is not None  # recovered by the re-ask
    assert output.other["answer_repairs"]["om_review"]["reasked"] == 1
    assert sum(c["failures"] for c in output.parse_failures.values()) == 3
    assert 3 in sleeps  # the Retry-After was honoured
    # every planned call, + 3 retries by the gateway, + 3 re-asks
    assert json_server.request_count - before == planned_calls(item.conversation, RunOptions()) + 6
    assert json_server.behaviour.pending_faults == 0
