"""Fixtures for the LLM gateway tests: a local OpenAI-compatible server, a dummy key, fake time.

These tests never leave 127.0.0.1. litellm's offline switches are set before anything can
import it (otherwise it fetches a price list at import time).
"""

import asyncio
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest

from attune_collect.llm import EndpointConfig, LLMGateway
from attune_collect.llm._litellm import apply_offline_environment
from attune_collect.llm.testing import TestServer, run_test_server
from attune_collect.llm.transport_direct import prepare_direct_transport

# Importing the gateway does not import litellm (it is loaded on the first call), so this
# still comes first.
apply_offline_environment()

KEY_ENV = "TEST_LLM_API_KEY"


def pytest_configure(config: pytest.Config) -> None:
    # litellm's import makes pydantic warn about its own TypedDicts: noise, not our problem.
    config.addinivalue_line("filterwarnings", "ignore:.*`ReadOnly` qualifier:UserWarning")


@pytest.fixture(scope="session")
def _shared_openai_server() -> Iterator[TestServer]:
    # One server for the session: starting and stopping uvicorn costs ~0.2 s a time.
    prepare_direct_transport()  # as the web process does: no CA bundle load inside a timeout
    with run_test_server() as server:
        yield server


@pytest.fixture
def openai_server(_shared_openai_server: TestServer) -> TestServer:
    """The local OpenAI-compatible server (real HTTP), reset to default behaviour."""
    _shared_openai_server.behaviour.reset()
    return _shared_openai_server


@pytest.fixture
def api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    """A dummy key in the environment variable the test endpoints name."""
    value = f"sk-attune-test-{secrets.token_hex(12)}"
    monkeypatch.setenv(KEY_ENV, value)
    return value


@dataclass
class FakeTime:
    """An injectable clock and sleep: sleeping advances the clock instantly."""

    now: float = 1000.0
    sleeps: list[float] = field(default_factory=list)

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)  # still a suspension point, like the real sleep


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def gateway(fake_time: FakeTime) -> LLMGateway:
    """A gateway whose backoff and pacing waits are recorded instead of slept."""
    return LLMGateway(sleep=fake_time.sleep, clock=fake_time.clock)


@pytest.fixture(params=["direct", "litellm"])
def transport(request: pytest.FixtureRequest) -> str:
    """Every test of an endpoint on the test server runs on both transports: the direct one
    (the default for OpenAI-compatible endpoints) and litellm (forced by the endpoint), so
    the same assertions prove they behave the same (retries, errors, accounting)."""
    return request.param


@pytest.fixture
def make_endpoint(
    openai_server: TestServer, api_key: str, transport: str
) -> Callable[..., EndpointConfig]:
    """Endpoints on the test server, e.g. make_endpoint(max_retries=1, timeout_s=0.3)."""

    def make(**overrides: object) -> EndpointConfig:
        settings: dict[str, object] = {
            "name": "test-endpoint",
            "model": "openai/test-model",
            "api_base": openai_server.base_url,
            "api_key_env": KEY_ENV,
            "timeout_s": 5.0,
            "force_litellm": transport == "litellm",
        }
        settings.update(overrides)
        return EndpointConfig(**settings)  # type: ignore[arg-type]

    return make
