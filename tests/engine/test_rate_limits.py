"""Per-model limits of the engine: a tokens-per-minute budget (estimated, then settled) and
priority slots that cap calls in flight and serve the most urgent waiter first."""

import asyncio

from attunebench.slots import PrioritySlots
from attunebench.token_limits import TokenRateLimiter, estimate_tokens
from tests.fake_clock import FakeClock


async def test_tokens_per_minute_waits_for_the_window_and_settles_to_real_usage():
    clock = FakeClock()
    limiter = TokenRateLimiter(1000, clock=clock, sleep=clock.sleep)
    first = await limiter.acquire(600)
    clock.now = 10.0
    await limiter.acquire(400)  # fits exactly: no wait
    assert clock.sleeps == []
    limiter.settle(first, 100)  # the first call used far fewer tokens than estimated
    await limiter.acquire(500)  # 100 + 400 + 500 fits now
    assert clock.sleeps == [] and limiter.booked() == 1000
    await limiter.acquire(100)  # must wait until the first booking leaves the window at t=60
    assert clock.now == 60.0 and clock.sleeps == [50.0]


async def test_a_call_larger_than_the_budget_runs_alone():
    clock = FakeClock()
    limiter = TokenRateLimiter(100, clock=clock, sleep=clock.sleep)
    await limiter.acquire(5000)
    assert clock.sleeps == []


def test_estimate_counts_characters_and_the_expected_completion():
    messages = [{"role": "user", "content": "x" * 400}]
    assert estimate_tokens(messages, 50) == 150
    assert estimate_tokens(messages) == 100 + 400


async def test_slots_admit_by_rank_and_cap_calls_in_flight():
    slots = PrioritySlots(2)
    order, in_flight, peak = [], 0, 0

    async def call(rank):
        nonlocal in_flight, peak
        async with slots.slot(rank):
            in_flight += 1
            peak = max(peak, in_flight)
            order.append(rank)
            await asyncio.sleep(0)
            in_flight -= 1

    await asyncio.gather(*(call(rank) for rank in [(5,), (9,), (1,), (7,), (0,), (3,)]))
    assert peak == 2
    assert order[:2] == [(5,), (9,)]  # free slots are taken at once
    assert order[2:] == [(0,), (1,), (3,), (7,)]  # then the most urgent waiter first
    assert slots.in_use == 0


async def test_a_cancelled_waiter_does_not_lose_a_slot():
    slots = PrioritySlots(1)
    await slots.acquire()
    waiter = asyncio.create_task(slots.acquire((1,)))
    await asyncio.sleep(0)
    waiter.cancel()
    await asyncio.gather(waiter, return_exceptions=True)
    slots.release()
    await asyncio.wait_for(slots.acquire((2,)), 1)
    assert slots.in_use == 1
