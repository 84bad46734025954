"""Requests-per-minute limits shared through Redis (db 15): two "workers" (separate clients)
book one schedule, and the gateway uses the shared limiter when given the factory."""

import asyncio
import time

import pytest
import redis

from attune_collect.llm import EndpointConfig, LLMGateway
from evaluation.rate_limits import RedisRateLimiterFactory, RedisRequestRateLimiter
from tests.evaluation.conftest import TEST_REDIS_URL


@pytest.fixture
def two_workers():
    clients = [redis.Redis.from_url(TEST_REDIS_URL) for _ in range(2)]
    yield clients
    for client in clients:
        client.close()


def test_two_workers_book_one_evenly_spaced_schedule(two_workers, redis_prefix):
    key = f"{redis_prefix}rpm:model:600"
    a, b = (RedisRequestRateLimiter(client, key, per_minute=600) for client in two_workers)
    waits = [limiter.reserve() for limiter in (a, b, a, b, a, b)]
    # 600/min is one start per 0.1 s, whichever worker asks: 0, 0.1, 0.2, ...
    assert waits == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4, 0.5], abs=0.02)


def test_the_schedule_frees_up_as_time_passes(two_workers, redis_prefix):
    limiter = RedisRequestRateLimiter(two_workers[0], f"{redis_prefix}rpm:m:1200", 1200)
    assert limiter.reserve() == 0.0
    time.sleep(0.06)  # one interval (0.05 s) later the next start is free again
    assert limiter.reserve() == 0.0


def test_the_gateway_paces_calls_through_the_shared_limiter(two_workers, redis_prefix):
    """Two gateways (two worker processes) calling one demo endpoint at 600/min: six calls
    cannot start in less than half a second in total."""
    gateways = [
        LLMGateway(rate_limiter_factory=RedisRateLimiterFactory(client, redis_prefix))
        for client in two_workers
    ]
    endpoint = EndpointConfig(
        name="attune-demo/listener", model="attune-demo/listener", requests_per_minute=600
    )

    async def calls():
        messages = [{"role": "user", "content": "I feel a bit low today"}]
        await asyncio.gather(*(g.complete(endpoint, messages) for g in gateways for _ in range(3)))

    asyncio.run(gateways[0].complete(endpoint, [{"role": "user", "content": "warm up"}]))
    started = time.monotonic()
    asyncio.run(calls())
    assert time.monotonic() - started >= 0.5 - 0.02
    assert two_workers[0].exists(f"{redis_prefix}rpm:attune-demo/listener:600")


def test_without_a_factory_the_gateway_keeps_its_own_limiter():
    from attune_collect.llm.limits import RequestRateLimiter

    gateway = LLMGateway()
    assert isinstance(gateway._rate_limiters.get("e", 60), RequestRateLimiter)
