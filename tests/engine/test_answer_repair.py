"""Unparseable answers: safe repairs first, then a bounded number of re-asks, then a recorded
failure with every raw text. Never an exception, never a silent drop."""

import pytest

from attune_collect.llm import EndpointConfig
from attunebench.asking import ask
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.parsing import extract_json_object, parse_answer
from attunebench.prompts import load_prompt_set
from attunebench.schemas import draft_schema
from tests.engine.conftest import FakeGateway

GOOD = '{"response": "I hear you."}'


@pytest.mark.parametrize(
    ("text", "repaired"),
    [
        (GOOD, False),
        ('```json\n{"response": "I hear you."}\n```', True),
        ('Sure! Here it is: {"response": "I hear you."} Hope that helps.', True),
        ('{"response": "I hear you.",}', True),
        ('```\n{"response": "I hear you.", }\n```', True),
    ],
)
def test_safe_repairs(text, repaired):
    assert extract_json_object(text) == ({"response": "I hear you."}, repaired)


@pytest.mark.parametrize(
    "text", ["{response: 'I hear you'}", '{"response": "I hear', "I hear you.", "[1, 2]", ""]
)
def test_unsafe_text_is_not_guessed(text):
    assert extract_json_object(text) == (None, False)


def test_a_valid_object_of_the_wrong_shape_is_a_schema_error():
    parsed = parse_answer('{"reply": "hi"}', draft_schema(verbose=False))
    assert not parsed.ok and parsed.error == "missing key response"


async def test_reask_shows_the_error_and_the_template_then_succeeds():
    replies = iter(["Sorry, I cannot do JSON.", GOOD])
    gateway = FakeGateway(lambda model, messages: next(replies))
    answer = await ask(
        CallExecutor(MemoryCallCache(), gateway),
        EndpointConfig("fake/em"),
        [{"role": "user", "content": "Reply."}],
        draft_schema(verbose=False),
        load_prompt_set(),
    )
    assert answer.ok and answer.value == {"response": "I hear you."}
    assert answer.raw_texts == ("Sorry, I cannot do JSON.", GOOD)
    reask = gateway.requests[1][1]
    assert reask[-2] == {"role": "assistant", "content": "Sorry, I cannot do JSON."}
    assert "not a JSON object" in reask[-1]["content"] and '"response"' in reask[-1]["content"]


async def test_what_still_fails_is_returned_with_every_raw_text():
    gateway = FakeGateway(lambda model, messages: f"nope {len(messages)}")
    answer = await ask(
        CallExecutor(MemoryCallCache(), gateway),
        EndpointConfig("fake/em"),
        [{"role": "user", "content": "Reply."}],
        draft_schema(verbose=False),
        load_prompt_set(),
        max_reasks=2,
    )
    assert not answer.ok and answer.value is None
    assert answer.raw_texts == ("nope 1", "nope 3", "nope 5")  # 1 ask + 2 re-asks, bounded
    assert answer.error == "the reply is not a JSON object"
    assert len(gateway.requests) == 3
