"""The per-endpoint concurrency limit: the server never sees more than N calls in flight."""

import asyncio

from attune_collect.llm import LLMGateway

MESSAGES = [{"role": "user", "content": "hi"}]


async def test_completions_respect_max_concurrency(make_endpoint, openai_server):
    openai_server.behaviour.latency_s = 0.05
    gateway = LLMGateway()
    endpoint = make_endpoint(max_concurrency=3)

    await asyncio.gather(*(gateway.complete(endpoint, MESSAGES) for _ in range(12)))

    assert openai_server.behaviour.max_in_flight == 3
    assert openai_server.request_count == 12


async def test_a_stream_holds_its_slot_until_it_ends(make_endpoint, openai_server):
    openai_server.behaviour.token_delay_s = 0.01
    gateway = LLMGateway()
    endpoint = make_endpoint(max_concurrency=2)

    async def consume() -> None:
        async for _ in gateway.stream(endpoint, MESSAGES):
            pass

    await asyncio.gather(*(consume() for _ in range(6)))

    assert openai_server.behaviour.max_in_flight == 2


async def test_endpoints_have_separate_limits(make_endpoint, openai_server):
    openai_server.behaviour.latency_s = 0.05
    gateway = LLMGateway()
    first, second = (
        make_endpoint(name="a", max_concurrency=1),
        make_endpoint(name="b", max_concurrency=1),
    )

    await asyncio.gather(*(gateway.complete(e, MESSAGES) for e in (first, second, first, second)))

    assert openai_server.behaviour.max_in_flight == 2
