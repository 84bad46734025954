"""One call pool per worker process: units run in separate event loops (a Django worker runs
each in a fresh ``asyncio.run``) still share the tokens-per-minute window and join identical
calls in flight, while each unit's executor counts only its own calls."""

import asyncio
import threading
from typing import Any

from attune_collect.llm import Completion, EndpointConfig, LLMGateway
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor, CallPool

MESSAGES = [{"role": "user", "content": "How are you feeling?"}]


class SlowGateway(LLMGateway):
    """Answers after ``release`` is set, counting requests (thread-safe, any loop)."""

    def __init__(self) -> None:
        super().__init__()
        self.requests = 0
        self.release = threading.Event()

    async def complete(self, endpoint: EndpointConfig, messages: Any, **params: Any) -> Completion:
        self.requests += 1
        while not self.release.is_set():
            await asyncio.sleep(0.005)
        return Completion(
            text="fine",
            finish_reason="stop",
            prompt_tokens=600,
            completion_tokens=100,
            cost_usd=0.0,
            latency_ms=1.0,
            model=endpoint.model,
            attempts=1,
        )


def run_in_own_loop(coroutine_factory, results: list, index: int) -> threading.Thread:
    def target() -> None:
        results[index] = asyncio.run(coroutine_factory())

    thread = threading.Thread(target=target)
    thread.start()
    return thread


def test_identical_calls_of_units_in_different_loops_are_made_once():
    gateway = SlowGateway()
    pool = CallPool(MemoryCallCache(), gateway)
    units = [CallExecutor(pool=pool), CallExecutor(pool=pool)]
    spec = EndpointConfig("openai/m")
    results: list = [None, None]

    threads = [
        run_in_own_loop(lambda unit=unit: unit.complete(spec, MESSAGES), results, index)
        for index, unit in enumerate(units)
    ]
    while gateway.requests == 0:
        threading.Event().wait(0.005)
    threading.Event().wait(0.05)  # the second unit has had time to ask too
    gateway.release.set()
    for thread in threads:
        thread.join(timeout=10)

    assert gateway.requests == 1
    assert sorted(result.cached for result in results) == [False, True]
    assert {result.text for result in results} == {"fine"}
    made = [unit.usage()["openai/m"].made for unit in units]
    assert sorted(made) == [0, 1]


def test_the_tokens_per_minute_window_holds_across_units():
    gateway = SlowGateway()
    gateway.release.set()
    pool = CallPool(MemoryCallCache(), gateway)
    spec = EndpointConfig("openai/m", tokens_per_minute=10_000)

    for unit_number in range(3):  # three units, one after another, each in its own loop
        executor = CallExecutor(pool=pool)
        question = [{"role": "user", "content": f"unit {unit_number}"}]
        asyncio.run(executor.complete(spec, question))

    limiter = pool._token_limit_for(spec)
    assert limiter is not None
    assert limiter.booked() == 3 * 700  # every unit's settled usage is in the one window


def test_a_cancelled_call_lets_a_joined_unit_make_it_itself():
    gateway = SlowGateway()
    pool = CallPool(MemoryCallCache(), gateway)
    spec = EndpointConfig("openai/m")

    async def scenario() -> str:
        owner = asyncio.create_task(CallExecutor(pool=pool).complete(spec, MESSAGES))
        await asyncio.sleep(0.02)
        joiner = asyncio.create_task(CallExecutor(pool=pool).complete(spec, MESSAGES))
        await asyncio.sleep(0.02)
        owner.cancel()
        await asyncio.sleep(0.02)
        gateway.release.set()
        return (await joiner).text

    assert asyncio.run(scenario()) == "fine"
    assert gateway.requests == 2  # the joiner asked again once the owner was gone
