"""The gateway refuses, before anything is read or sent, an endpoint whose key variable is not
allowed (the platform's own secrets above all) or whose parameters hold a credential; on both
transports, for a whole answer and a stream alike. The refused variable is never read."""

import pytest

from attune_collect.llm import GatewayError, LLMGateway
from attune_collect.llm.errors import SECRETS
from attune_collect.llm.secrets_policy import KeyEnvPolicy, use_key_env_policy

MESSAGES = [{"role": "user", "content": "hi"}]
PLATFORM_SECRET = "the-platform-secret-value-4f1e"


async def _call(gateway: LLMGateway, endpoint, streamed: bool) -> None:
    if streamed:
        [event async for event in gateway.stream(endpoint, MESSAGES)]
    else:
        await gateway.complete(endpoint, MESSAGES)


@pytest.mark.parametrize("streamed", [False, True], ids=["complete", "stream"])
@pytest.mark.parametrize(
    "name", ["DJANGO_SECRET_KEY", "ATTUNE_PSEUDONYM_SALT", "DATABASE_URL", "REDIS_URL"]
)
async def test_a_platform_variable_is_refused_and_never_read(
    gateway, make_endpoint, openai_server, monkeypatch, name, streamed
):
    monkeypatch.setenv(name, PLATFORM_SECRET)

    with pytest.raises(GatewayError) as raised:
        await _call(gateway, make_endpoint(api_key_env=name), streamed)

    error = raised.value
    assert (error.kind, error.retryable, error.attempts) == ("config", False, 0)
    assert name in error.message and PLATFORM_SECRET not in str(error)
    assert openai_server.request_count == 0
    assert not SECRETS.contains_secret(PLATFORM_SECRET)  # read values are registered here


async def test_a_name_outside_the_pattern_is_refused(gateway, make_endpoint, openai_server):
    with pytest.raises(GatewayError) as raised:
        await gateway.complete(make_endpoint(api_key_env="HOME"), MESSAGES)

    assert raised.value.kind == "config"
    assert openai_server.request_count == 0


async def test_the_installed_policy_decides(gateway, make_endpoint, openai_server, monkeypatch):
    monkeypatch.setenv("LAB_KEY", "sk-lab-key-value")
    previous = use_key_env_policy(lambda: KeyEnvPolicy(allowed=frozenset({"LAB_KEY"})))
    try:
        completion = await gateway.complete(make_endpoint(api_key_env="LAB_KEY"), MESSAGES)
    finally:
        use_key_env_policy(previous)

    assert completion.text
    assert openai_server.request_count == 1


@pytest.mark.parametrize("streamed", [False, True], ids=["complete", "stream"])
@pytest.mark.parametrize(
    "params",
    [
        {"openai_api_key": "sk-leak"},
        {"apikey": "sk-leak"},
        {"x-api-key": "sk-leak"},
        {"Bearer": "abc"},
        {"extra_body": {"api_key": "sk-leak"}},
        {"Extra_Headers": {"X-Custom": "1"}},
    ],
    ids=["openai_api_key", "apikey", "x-api-key", "Bearer", "nested", "headers"],
)
async def test_credentials_in_the_parameters_are_refused(
    gateway, make_endpoint, openai_server, params, streamed
):
    with pytest.raises(GatewayError) as raised:
        await _call(gateway, make_endpoint(params=params), streamed)

    error = raised.value
    assert (error.kind, error.retryable) == ("config", False)
    assert "params." in error.message and "sk-leak" not in str(error)
    assert openai_server.request_count == 0
