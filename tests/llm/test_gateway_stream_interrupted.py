"""A stream that breaks after text reached the caller is final: no retry, partial text kept."""

import pytest

from attune_collect.llm import GatewayError, LLMGateway, StreamDone, TokenDelta

MESSAGES = [{"role": "user", "content": "tell me a long story please"}]


async def test_a_cut_after_tokens_raises_stream_interrupted(
    gateway: LLMGateway, make_endpoint, openai_server
):
    openai_server.behaviour.cut_stream(after_tokens=3)
    received: list[str] = []

    with pytest.raises(GatewayError) as raised:
        async for event in gateway.stream(make_endpoint(), MESSAGES):
            assert isinstance(event, TokenDelta)
            received.append(event.text)

    error = raised.value
    assert received == ["Test ", "server ", "reply "]
    assert (error.kind, error.retryable, error.attempts) == ("stream_interrupted", False, 1)
    assert error.partial_text == "Test server reply "
    assert openai_server.request_count == 1  # never retried once the caller saw text
    assert gateway.ledger.usage("test-endpoint").failures == 1


async def test_a_cut_before_any_token_is_retried(gateway: LLMGateway, make_endpoint, openai_server):
    openai_server.behaviour.cut_stream(after_tokens=0)

    events = [event async for event in gateway.stream(make_endpoint(), MESSAGES)]

    assert isinstance(events[-1], StreamDone)
    assert events[-1].completion.attempts == 2
    assert openai_server.request_count == 2
