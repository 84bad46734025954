"""A stalled provider: the call times out after the endpoint's timeout and is tried again."""

import time

import pytest

from attune_collect.llm import GatewayError, LLMGateway

MESSAGES = [{"role": "user", "content": "hi"}]


async def test_a_timeout_is_retried_then_succeeds(
    gateway: LLMGateway, make_endpoint, openai_server
):
    openai_server.behaviour.stall(seconds=10)
    started = time.monotonic()

    completion = await gateway.complete(make_endpoint(timeout_s=0.3), MESSAGES)

    assert completion.attempts == 2
    assert time.monotonic() - started < 3  # the stall was cut short, not waited out


async def test_repeated_timeouts_raise_a_timeout_error(
    gateway: LLMGateway, make_endpoint, openai_server
):
    openai_server.behaviour.stall(seconds=10, times=2)

    with pytest.raises(GatewayError) as raised:
        await gateway.complete(make_endpoint(timeout_s=0.2, max_retries=1), MESSAGES)

    assert (raised.value.kind, raised.value.attempts, raised.value.retryable) == (
        "timeout",
        2,
        True,
    )


async def test_a_stream_that_stalls_before_its_first_token_is_retried(
    gateway: LLMGateway, make_endpoint, openai_server
):
    openai_server.behaviour.stall(seconds=10)

    events = [event async for event in gateway.stream(make_endpoint(timeout_s=0.3), MESSAGES)]

    assert events[-1].completion.attempts == 2
    assert events[-1].completion.text.startswith("Test server reply")
