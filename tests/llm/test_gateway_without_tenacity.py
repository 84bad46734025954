"""The gateway needs no tenacity: litellm imports it only to retry by itself, and the gateway
never lets it (num_retries=0), so requirements.txt does not pin it. Proved by hiding it."""

import importlib
import sys

import pytest

from attune_collect.llm import GatewayError, LLMGateway

MESSAGES = [{"role": "user", "content": "hi"}]


@pytest.fixture
def transport() -> str:
    """Only litellm could want tenacity: every endpoint here goes through it (force_litellm)."""
    return "litellm"


@pytest.fixture
def without_tenacity(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "tenacity" or m.startswith("tenacity.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "tenacity", None)  # `import tenacity` now raises ImportError
    with pytest.raises(ImportError):
        importlib.import_module("tenacity")


async def test_retried_errors_and_successes_need_no_tenacity(
    without_tenacity, gateway: LLMGateway, make_endpoint, openai_server
):
    openai_server.behaviour.server_error()
    completion = await gateway.complete(make_endpoint(), MESSAGES)
    assert completion.attempts == 2 and completion.text


async def test_errors_keep_their_kind_without_tenacity(
    without_tenacity, gateway: LLMGateway, make_endpoint, openai_server
):
    openai_server.behaviour.server_error(times=10)
    with pytest.raises(GatewayError) as raised:
        await gateway.complete(make_endpoint(max_retries=1), MESSAGES)
    assert (raised.value.kind, raised.value.attempts, raised.value.status_code) == (
        "upstream_error",
        2,
        500,
    )
    openai_server.behaviour.reset()
    openai_server.behaviour.status(429)
    with pytest.raises(GatewayError) as raised:
        await gateway.complete(make_endpoint(max_retries=0), MESSAGES)
    assert raised.value.kind == "rate_limited"


async def test_streaming_needs_no_tenacity(
    without_tenacity, gateway: LLMGateway, make_endpoint, openai_server
):
    events = [event async for event in gateway.stream(make_endpoint(), MESSAGES)]
    assert events
