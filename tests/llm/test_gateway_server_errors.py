"""5xx and other failures: retried when it can help, reported with kind and attempts when not."""

import pytest

from attune_collect.llm import GatewayError, LLMGateway

MESSAGES = [{"role": "user", "content": "hi"}]


async def test_a_500_is_retried_then_succeeds(
    gateway: LLMGateway, make_endpoint, openai_server, fake_time
):
    openai_server.behaviour.server_error()

    completion = await gateway.complete(make_endpoint(), MESSAGES)

    assert completion.attempts == 2
    assert openai_server.request_count == 2  # litellm made no retries of its own
    assert len(fake_time.sleeps) == 1


async def test_exhausted_retries_raise_with_kind_and_attempts(
    gateway: LLMGateway, make_endpoint, openai_server
):
    openai_server.behaviour.server_error(times=10)

    with pytest.raises(GatewayError) as raised:
        await gateway.complete(make_endpoint(max_retries=2), MESSAGES)

    error = raised.value
    assert (error.kind, error.attempts, error.retryable) == ("upstream_error", 3, True)
    assert error.status_code == 500
    assert openai_server.request_count == 3
    usage = gateway.ledger.usage("test-endpoint")
    assert (usage.calls, usage.failures, usage.attempts) == (1, 1, 3)


@pytest.mark.parametrize(
    ("status", "kind"), [(400, "bad_request"), (401, "auth"), (404, "bad_request")]
)
async def test_client_errors_are_not_retried(
    gateway: LLMGateway, make_endpoint, openai_server, status, kind
):
    openai_server.behaviour.status(status)

    with pytest.raises(GatewayError) as raised:
        await gateway.complete(make_endpoint(), MESSAGES)

    assert (raised.value.kind, raised.value.attempts, raised.value.retryable) == (kind, 1, False)
    assert openai_server.request_count == 1


async def test_a_refused_connection_is_a_retryable_connection_error(
    gateway: LLMGateway, make_endpoint
):
    endpoint = make_endpoint(api_base="http://127.0.0.1:9/v1", max_retries=1)  # nothing listens

    with pytest.raises(GatewayError) as raised:
        await gateway.complete(endpoint, MESSAGES)

    assert (raised.value.kind, raised.value.attempts) == ("connection", 2)
