"""The direct transport spreads a loop's requests over POOL_SHARDS HTTP clients.

httpcore's pool scans all its connections whenever a request starts or ends, so the cost per
call grew with the calls in flight (one pool of 192 connections: about 30% of an engine run's
CPU). Shards keep each pool small; every call still gets its answer."""

import asyncio

import pytest

from attune_collect.llm import EndpointConfig, LLMGateway
from attune_collect.llm.transport_direct import POOL_SHARDS, DirectTransport

MESSAGES = [{"role": "user", "content": "hi"}]
IN_FLIGHT = 4 * POOL_SHARDS


@pytest.fixture
def endpoint(openai_server, api_key) -> EndpointConfig:
    return EndpointConfig(
        name="shards",
        model="openai/test-model",
        api_base=openai_server.base_url,
        api_key_env="ATTUNE_TEST_LLM_KEY",
        max_concurrency=IN_FLIGHT,
    )


def _connections(transport: DirectTransport) -> list[int]:
    shards = transport._clients[asyncio.get_running_loop()]
    return [len(client._transport._pool.connections) for client in shards.clients]


async def test_calls_in_flight_are_spread_over_the_shards(openai_server, endpoint):
    openai_server.behaviour.latency_s = 0.05
    gateway = LLMGateway()
    transport = gateway.transport_for(endpoint)
    assert isinstance(transport, DirectTransport)

    completions = await asyncio.gather(
        *(gateway.complete(endpoint, MESSAGES) for _ in range(IN_FLIGHT))
    )

    assert all(completion.text for completion in completions)
    assert openai_server.request_count == IN_FLIGHT
    per_shard = _connections(transport)
    assert len(per_shard) == POOL_SHARDS
    # In turn: every shard served calls, and none opened more connections than its share
    # (fewer when a call ended before the next one of its shard began).
    assert all(1 <= count <= IN_FLIGHT // POOL_SHARDS for count in per_shard), per_shard
    await transport.aclose()


async def test_a_loops_shards_keep_their_connections_across_calls(openai_server, endpoint):
    gateway = LLMGateway()
    transport = gateway.transport_for(endpoint)

    for _ in range(3 * POOL_SHARDS):  # one call at a time: each shard reuses its connection
        await gateway.complete(endpoint, MESSAGES)

    assert _connections(transport) == [1] * POOL_SHARDS
    await transport.aclose()
