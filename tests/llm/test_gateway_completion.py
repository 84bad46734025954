"""A plain completion through litellm against the local server: text, usage, ledger, key."""

from attune_collect.llm import GatewayError, LLMGateway

MESSAGES = [{"role": "user", "content": "hello there friend"}]


async def test_returns_the_text_and_usage(gateway: LLMGateway, make_endpoint, openai_server):
    completion = await gateway.complete(make_endpoint(), MESSAGES)

    assert completion.text == "Test server reply to: hello there friend"
    assert completion.finish_reason == "stop"
    assert completion.prompt_tokens == 3
    assert completion.completion_tokens == 7
    assert completion.cost_usd == 0.0  # litellm has no price for "test-model": never a crash
    assert completion.attempts == 1
    assert completion.model == "openai/test-model"
    assert openai_server.request_count == 1


async def test_measures_latency_with_its_clock(make_endpoint, openai_server):
    openai_server.behaviour.latency_s = 0.05

    completion = await LLMGateway().complete(make_endpoint(), MESSAGES)

    assert completion.latency_ms >= 50


async def test_the_ledger_adds_up_calls_per_endpoint(gateway: LLMGateway, make_endpoint):
    await gateway.complete(make_endpoint(name="a"), MESSAGES)
    await gateway.complete(make_endpoint(name="a"), MESSAGES)
    await gateway.complete(make_endpoint(name="b"), MESSAGES)

    usage = gateway.ledger.usage("a")
    assert (usage.calls, usage.failures, usage.attempts) == (2, 0, 2)
    assert (usage.prompt_tokens, usage.completion_tokens) == (6, 14)
    assert gateway.ledger.total().calls == 3


async def test_sends_the_key_read_from_the_environment_at_call_time(
    gateway: LLMGateway, make_endpoint, openai_server, monkeypatch
):
    endpoint = make_endpoint()
    monkeypatch.setenv("TEST_LLM_API_KEY", "sk-rotated-key")  # rotated after configuration

    await gateway.complete(endpoint, MESSAGES)

    assert openai_server.behaviour.request_headers[0]["authorization"] == "Bearer sk-rotated-key"


async def test_passes_endpoint_params_and_lets_the_call_override_them(
    gateway: LLMGateway, make_endpoint, openai_server
):
    endpoint = make_endpoint(params={"temperature": 0.2, "max_tokens": 50})

    await gateway.complete(endpoint, MESSAGES, temperature=0.9)

    body = openai_server.behaviour.requests[0]
    assert (body["temperature"], body["max_tokens"]) == (0.9, 50)
    assert body["messages"] == MESSAGES


async def test_refuses_parameters_the_gateway_owns(gateway: LLMGateway, make_endpoint):
    try:
        await gateway.complete(make_endpoint(), MESSAGES, num_retries=5)
    except GatewayError as error:
        assert error.kind == "config"
        assert "num_retries" in error.message
    else:
        raise AssertionError("expected a config error")
