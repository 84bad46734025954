"""API keys: a missing variable is a config error naming it; a key never shows in errors or logs."""

import logging
import traceback

import pytest

from attune_collect.llm import GatewayError, LLMGateway

MESSAGES = [{"role": "user", "content": "hi"}]


async def test_a_missing_key_variable_is_a_config_error_naming_it(
    gateway: LLMGateway, make_endpoint, openai_server, monkeypatch
):
    monkeypatch.delenv("TEST_LLM_API_KEY")

    with pytest.raises(GatewayError) as raised:
        await gateway.complete(make_endpoint(), MESSAGES)

    error = raised.value
    assert (error.kind, error.retryable, error.attempts) == ("config", False, 0)
    assert "TEST_LLM_API_KEY" in error.message
    assert openai_server.request_count == 0
    assert gateway.ledger.usage("test-endpoint").failures == 1


async def test_a_missing_key_variable_fails_a_stream_too(
    gateway: LLMGateway, make_endpoint, monkeypatch
):
    monkeypatch.setenv("TEST_LLM_API_KEY", "  ")  # blank counts as unset

    with pytest.raises(GatewayError) as raised:
        [event async for event in gateway.stream(make_endpoint(), MESSAGES)]

    assert raised.value.kind == "config"


async def test_a_key_echoed_by_the_provider_is_scrubbed_from_errors_and_logs(
    gateway: LLMGateway, make_endpoint, openai_server, api_key, caplog
):
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="LiteLLM")
    # Some providers quote the key back in their error message.
    openai_server.behaviour.status(401, message=f"Incorrect API key provided: {api_key}")

    with pytest.raises(GatewayError) as raised:
        await gateway.complete(make_endpoint(), MESSAGES)

    error = raised.value
    assert error.kind == "auth"
    assert "[REDACTED]" in error.message
    shown = [str(error), repr(error), error.message, "".join(traceback.format_exception(error))]
    assert not any(api_key in text for text in shown)
    assert error.__context__ is None and error.__cause__ is None  # no unscrubbed original
    assert caplog.records, "the failure should have been logged"
    assert api_key not in caplog.text


async def test_a_key_never_reaches_the_logs_on_a_stream_failure(
    gateway: LLMGateway, make_endpoint, openai_server, api_key, caplog
):
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="LiteLLM")
    openai_server.behaviour.cut_stream(after_tokens=2)

    with pytest.raises(GatewayError):
        [event async for event in gateway.stream(make_endpoint(), MESSAGES)]

    assert api_key not in caplog.text


async def test_a_library_log_line_quoting_a_used_key_is_redacted(
    gateway: LLMGateway, make_endpoint, api_key, caplog
):
    caplog.set_level(logging.DEBUG)
    await gateway.complete(make_endpoint(), MESSAGES)  # the gateway now knows this key

    # The OpenAI SDK's logger, which (unlike litellm's) has no masking of its own.
    logging.getLogger("openai").debug("provider rejected key %s", api_key)

    assert "provider rejected key [REDACTED]" in caplog.text
    assert api_key not in caplog.text
