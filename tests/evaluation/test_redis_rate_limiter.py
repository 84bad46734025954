"""Requests-per-minute limits shared through Redis (db 15): two "workers" (separate clients)
book one schedule, and the gateway uses the shared limiter when given the factory. The
schedules run on a fake clock given to the limiter, so no assertion depends on how fast the
machine is; one test keeps Redis's own clock, the one production uses."""

import asyncio

import pytest
import redis

from attune_collect.llm import EndpointConfig, LLMGateway
from evaluation.rate_limits import RedisRateLimiterFactory, RedisRequestRateLimiter
from tests.evaluation.conftest import TEST_REDIS_URL
from tests.fake_clock import FrozenClock


@pytest.fixture
def two_workers():
    clients = [redis.Redis.from_url(TEST_REDIS_URL) for _ in range(2)]
    yield clients
    for client in clients:
        client.close()


START = 1_000_000.0  # the fake clock's instant; any value far from Redis's own time would do


def test_two_workers_book_one_evenly_spaced_schedule(two_workers, redis_prefix):
    key = f"{redis_prefix}rpm:model:600"
    clock = FrozenClock(START)
    a, b = (RedisRequestRateLimiter(c, key, per_minute=600, clock=clock) for c in two_workers)
    waits = [limiter.reserve() for limiter in (a, b, a, b, a, b)]
    # 600/min is one start per 0.1 s, whichever worker asks: 0, 0.1, 0.2, ...
    assert waits == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4, 0.5], abs=1e-6)


def test_the_schedule_frees_up_as_time_passes(two_workers, redis_prefix):
    clock = FrozenClock(START)
    limiter = RedisRequestRateLimiter(
        two_workers[0], f"{redis_prefix}rpm:m:1200", 1200, clock=clock
    )
    assert limiter.reserve() == 0.0
    clock.now += 0.02  # within the interval (0.05 s): the next start waits for the rest of it
    assert limiter.reserve() == pytest.approx(0.03, abs=1e-6)
    clock.now += 0.2  # long after the schedule: free again at once
    assert limiter.reserve() == 0.0


def test_without_a_clock_the_schedule_runs_on_redis_time(two_workers, redis_prefix):
    """Production reads Redis's clock (one clock for every worker): a second booking right after
    the first waits one interval, less the moment between the two calls."""
    limiter = RedisRequestRateLimiter(two_workers[0], f"{redis_prefix}rpm:m:6", per_minute=6)
    assert limiter.reserve() == 0.0
    assert 5.0 < limiter.reserve() <= 10.0  # one start per 10 s


def test_the_gateway_paces_calls_through_the_shared_limiter(two_workers, redis_prefix):
    """Two gateways (two worker processes) calling one demo endpoint at 600/min: of six calls
    asked for at once, the first starts at once and the others wait 0.1 s more each."""
    clock = FrozenClock(START)
    gateways = [
        LLMGateway(
            rate_limiter_factory=RedisRateLimiterFactory(
                client, redis_prefix, sleep=clock.sleep, clock=clock
            )
        )
        for client in two_workers
    ]
    endpoint = EndpointConfig(
        name="attune-demo/listener", model="attune-demo/listener", requests_per_minute=600
    )

    async def calls():
        messages = [{"role": "user", "content": "I feel a bit low today"}]
        await asyncio.gather(*(g.complete(endpoint, messages) for g in gateways for _ in range(3)))

    asyncio.run(calls())
    assert sorted(clock.sleeps) == pytest.approx([0.1, 0.2, 0.3, 0.4, 0.5], abs=1e-6)
    assert two_workers[0].exists(f"{redis_prefix}rpm:attune-demo/listener:600")


def test_without_a_factory_the_gateway_keeps_its_own_limiter():
    from attune_collect.llm.limits import RequestRateLimiter

    gateway = LLMGateway()
    assert isinstance(gateway._rate_limiters.get("e", 60), RequestRateLimiter)
