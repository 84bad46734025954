"""A 200 whose body is not JSON, and an answer cut mid-body: the same error on both transports,
retried like any upstream failure, counted once in the ledger."""

import pytest

from attune_collect.llm import GatewayError, LLMGateway

MESSAGES = [{"role": "user", "content": "hi"}]


async def test_a_body_that_is_not_json_is_retried_then_succeeds(
    gateway: LLMGateway, make_endpoint, openai_server
):
    openai_server.behaviour.bad_body()

    completion = await gateway.complete(make_endpoint(), MESSAGES)

    assert completion.attempts == 2
    assert completion.text == "Test server reply to: hi"
    assert openai_server.request_count == 2


async def test_a_body_that_is_never_json_is_an_upstream_error(
    gateway: LLMGateway, make_endpoint, openai_server
):
    openai_server.behaviour.bad_body(times=5)

    with pytest.raises(GatewayError) as raised:
        await gateway.complete(make_endpoint(max_retries=1), MESSAGES)

    assert (raised.value.kind, raised.value.attempts, raised.value.retryable) == (
        "upstream_error",
        2,
        True,
    )
    usage = gateway.ledger.usage("test-endpoint")
    assert (usage.calls, usage.failures, usage.attempts, usage.completion_tokens) == (1, 1, 2, 0)


async def test_a_stream_event_that_is_not_json_is_retried_before_the_first_token(
    gateway: LLMGateway, make_endpoint, openai_server
):
    openai_server.behaviour.bad_body()

    events = [event async for event in gateway.stream(make_endpoint(), MESSAGES)]

    assert events[-1].completion.attempts == 2
    assert "".join(e.text for e in events[:-1]) == "Test server reply to: hi"


async def test_a_body_cut_short_is_a_retryable_connection_error(
    gateway: LLMGateway, make_endpoint, openai_server
):
    openai_server.behaviour.cut_stream(after_tokens=0, times=2)

    with pytest.raises(GatewayError) as raised:
        await gateway.complete(make_endpoint(max_retries=1), MESSAGES)

    assert (raised.value.kind, raised.value.attempts) == ("connection", 2)
    assert openai_server.request_count == 2
