"""The direct transport keeps one HTTP session per event loop whose connections outlive calls:
calls in flight at once each get a connection, and later calls reuse them rather than opening
new ones (a TLS handshake per call would cost more than the call's own work)."""

import asyncio
import gc

import pytest

from attune_collect.llm import EndpointConfig, LLMGateway
from attune_collect.llm.transport_direct import DirectTransport

MESSAGES = [{"role": "user", "content": "hi"}]
IN_FLIGHT = 12


@pytest.fixture
def endpoint(openai_server, api_key) -> EndpointConfig:
    return EndpointConfig(
        name="connections",
        model="openai/test-model",
        api_base=openai_server.base_url,
        api_key_env="TEST_LLM_API_KEY",
        max_concurrency=IN_FLIGHT,
    )


def _idle_connections(transport: DirectTransport) -> int:
    connector = transport._session().connector
    return sum(len(idle) for idle in connector._conns.values())  # type: ignore[union-attr]


async def test_one_call_at_a_time_uses_one_connection(openai_server, endpoint):
    gateway = LLMGateway()
    transport = gateway.transport_for(endpoint)
    assert isinstance(transport, DirectTransport)

    for _ in range(5):
        assert (await gateway.complete(endpoint, MESSAGES)).text

    assert _idle_connections(transport) == 1
    await transport.aclose()


async def test_calls_in_flight_keep_their_connections_for_the_next_ones(openai_server, endpoint):
    openai_server.behaviour.latency_s = 0.05  # long enough that all are in flight at once
    gateway = LLMGateway()
    transport = gateway.transport_for(endpoint)

    for _ in range(2):
        completions = await asyncio.gather(
            *(gateway.complete(endpoint, MESSAGES) for _ in range(IN_FLIGHT))
        )
        assert all(completion.text for completion in completions)
        # The second round found the first round's connections idle and took them.
        assert _idle_connections(transport) == IN_FLIGHT

    assert openai_server.request_count == 2 * IN_FLIGHT
    await transport.aclose()


async def test_a_closed_session_is_replaced_on_the_next_call(openai_server, endpoint):
    gateway = LLMGateway()
    transport = gateway.transport_for(endpoint)
    await gateway.complete(endpoint, MESSAGES)
    await transport.aclose()

    assert (await gateway.complete(endpoint, MESSAGES)).text
    await transport.aclose()


def test_the_session_of_an_ended_loop_is_let_go_quietly(openai_server, endpoint, caplog):
    """One ``asyncio.run`` per Celery task or engine run: the next loop drops the last one's
    session, which aiohttp would otherwise log as an error when it is collected."""
    gateway = LLMGateway()
    transport = gateway.transport_for(endpoint)
    assert isinstance(transport, DirectTransport)
    loops = []

    async def one_call() -> None:
        loops.append(asyncio.get_running_loop())
        assert (await gateway.complete(endpoint, MESSAGES)).text

    asyncio.run(one_call())
    asyncio.run(one_call())

    assert loops[0] not in transport._sessions
    assert list(transport._sessions) == [loops[1]]
    transport.forget_ended_loops()  # as when a third loop starts
    assert transport._sessions == {}
    loops.clear()
    gc.collect()
    assert "Unclosed" not in caplog.text


async def test_a_transport_dropped_while_its_loop_runs_closes_its_session(
    openai_server, endpoint, caplog
):
    """A gateway made for one piece of work and dropped (a probe, a test) takes its sessions
    with it instead of leaving them for aiohttp to report as errors."""
    gateway = LLMGateway()
    assert (await gateway.complete(endpoint, MESSAGES)).text
    session = gateway.transport_for(endpoint)._session()  # type: ignore[attr-defined]

    del gateway
    gc.collect()

    assert session.closed
    assert "Unclosed" not in caplog.text
