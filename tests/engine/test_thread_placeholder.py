"""Section 3's thread rule: the EM sees the HP messages and OM replies so far, and a short
placeholder wherever it answered before; never its own earlier answers."""

import itertools
import json

from attune_collect.llm import EndpointConfig
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.prompts import load_prompt_set
from attunebench.runner import RunOptions, run_unit
from tests.engine.conftest import FakeGateway, demo_json_reply

PLACEHOLDER = load_prompt_set().render("placeholder")


def secret_answers() -> FakeGateway:
    """Valid answers whose free text is a unique marker, so a leak is easy to find."""
    counter = itertools.count()

    def reply(model, messages):
        answer = json.loads(demo_json_reply(messages))
        for key in answer:
            if "response" in key or "reasoning" in key:
                answer[key] = f"SECRET-{next(counter)}"
        return json.dumps(answer)

    return FakeGateway(reply)


def last_user(messages):
    return messages[-1]["content"]


async def requests_of(conversation, mode, gateway=None):
    """Run one unit; return the gateway's (model, messages) requests and the output."""
    gateway = gateway or FakeGateway()
    executor = CallExecutor(MemoryCallCache(), gateway)
    output = await run_unit(conversation, EndpointConfig("fake/em"), mode, RunOptions(), executor)
    return gateway.requests, output


async def test_earlier_answers_are_placeholders_and_history_is_the_data(conversations):
    conversation = max(conversations, key=lambda c: len(c.turns))
    requests, output = await requests_of(conversation, "verbose", secret_answers())
    secrets = {t.em_drafted_response for t in output.turns} | {
        t.emotion_reasoning for t in output.turns
    }
    assert all(text and text.startswith("SECRET-") for text in secrets)

    thread_calls = [m for _, m in requests if len(m) > 2]  # outside-thread calls have 2
    assert thread_calls
    for messages in thread_calls:
        assert messages[0]["role"] == "system"
        for message in messages[1:-1]:
            assert "SECRET-" not in message["content"]
            if message["role"] == "assistant":
                assert message["content"] == PLACEHOLDER
        # user and assistant alternate after the system prompt, as every provider accepts
        roles = [m["role"] for m in messages[1:]]
        assert roles == ["user", "assistant"] * (len(roles) // 2) + ["user"]

    turns = conversation.turns
    last = turns[-1]
    draft = next(
        m
        for _, m in requests
        if "Write the reply" in last_user(m)
        and last.user_message in last_user(m)
        and f"Turn {last.turn_number}." in last_user(m)
    )
    history = "\n".join(m["content"] for m in draft[1:-1])
    for earlier in turns[:-1]:
        assert earlier.user_message in history and earlier.llm_response in history
    # system, four messages per earlier turn (HP, placeholder, OM, placeholder), the request:
    # this turn's OM reply is not shown yet
    assert len(draft) == 1 + 4 * (len(turns) - 1) + 1


async def test_omniscient_shows_the_profile_at_turn_one_only(conversations):
    conversation = conversations[0]
    requests, _ = await requests_of(conversation, "omniscient")
    marker = "Background about the participant"
    thread_requests = [m for _, m in requests if len(m) > 2 or "Write the reply" in last_user(m)]
    for messages in thread_requests:
        shown = [i for i, m in enumerate(messages) if marker in m["content"]]
        assert len(shown) == 1  # exactly once: in turn 1's message, wherever the thread is
        assert f"Turn {conversation.turns[0].turn_number}." in messages[shown[0]]["content"]
    standalone = [m for _, m in requests if len(m) == 2 and "Write the reply" not in last_user(m)]
    assert all(marker not in m[-1]["content"] for m in standalone)

    default, _ = await requests_of(conversation, "default")
    assert all(marker not in m["content"] for _, ms in default for m in ms)
