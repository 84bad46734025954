"""The persistent call cache: keyed by (model, params, messages), first writer wins, survives
the process, and a cached call is never made again."""

import asyncio

from attune_collect.llm import EndpointConfig
from attunebench.cache import CachedCall, SQLiteCallCache, call_key
from attunebench.executor import CallExecutor
from tests.engine.conftest import FakeGateway

MESSAGES = [{"role": "user", "content": "Hello"}]


def test_key_depends_on_model_params_and_messages_only():
    key = call_key("openai/x", {"temperature": 0, "seed": 1}, MESSAGES)
    assert key == call_key("openai/x", {"seed": 1, "temperature": 0}, [dict(MESSAGES[0])])
    assert key != call_key("openai/y", {"temperature": 0, "seed": 1}, MESSAGES)
    assert key != call_key("openai/x", {"temperature": 1, "seed": 1}, MESSAGES)
    assert key != call_key(
        "openai/x", {"temperature": 0, "seed": 1}, [{"role": "user", "content": "Hello!"}]
    )
    assert len(key) == 64


async def test_entries_survive_reopening_and_the_first_writer_wins(tmp_path):
    path = tmp_path / "cache.sqlite3"
    first, second = SQLiteCallCache(path), SQLiteCallCache(path)  # two processes' handles
    stored = await first.put("k", CachedCall("answer one", "m", 10, 2, 0.5))
    assert stored.text == "answer one" and stored.created > 0
    raced = await second.put("k", CachedCall("answer two", "m", 11, 3, 0.7))
    assert raced.text == "answer one"  # both continue with the same answer
    first.close(), second.close()
    reopened = SQLiteCallCache(path)
    assert (await reopened.get("k")).cost_usd == 0.5
    assert await reopened.get("missing") is None
    assert len(reopened) == 1
    reopened.close()


async def test_a_cached_call_is_not_made_again(tmp_path):
    gateway = FakeGateway(lambda model, messages: "the answer")
    spec = EndpointConfig("fake/em", params={"temperature": 0})
    cache = SQLiteCallCache(tmp_path / "cache.sqlite3")
    first = await CallExecutor(cache, gateway).complete(spec, MESSAGES)
    again = CallExecutor(SQLiteCallCache(tmp_path / "cache.sqlite3"), gateway)
    second = await again.complete(spec, MESSAGES)
    assert (first.cached, second.cached) == (False, True)
    assert second.text == "the answer" and second.cost_usd == first.cost_usd
    assert len(gateway.requests) == 1
    assert again.usage()["fake/em"].cached == 1 and again.usage()["fake/em"].made == 0


async def test_identical_calls_in_flight_share_one_request():
    started = asyncio.Event()

    class SlowGateway(FakeGateway):
        async def complete(self, endpoint, messages, **params):
            started.set()
            await asyncio.sleep(0.01)
            return await super().complete(endpoint, messages, **params)

    from attunebench.cache import MemoryCallCache

    gateway = SlowGateway(lambda model, messages: "shared")
    executor = CallExecutor(MemoryCallCache(), gateway)
    results = await asyncio.gather(
        *(executor.complete(EndpointConfig("fake/em"), MESSAGES) for _ in range(5))
    )
    assert {r.text for r in results} == {"shared"}
    assert sorted(r.cached for r in results) == [False, True, True, True, True]
    assert len(gateway.requests) == 1
