"""The Redis call cache against the real Redis (db 15): the engine's CallCache contract, shared
by separate clients as by workers on separate machines; and which cache a deployment gets."""

import asyncio

from attunebench.cache import CachedCall, SQLiteCallCache, call_key
from evaluation.call_cache import RedisCallCache, open_call_cache
from tests.evaluation.conftest import TEST_REDIS_URL


def test_get_put_and_first_writer_wins_across_clients(redis_prefix):
    worker_a = RedisCallCache(TEST_REDIS_URL, prefix=redis_prefix)
    worker_b = RedisCallCache(TEST_REDIS_URL, prefix=redis_prefix)
    key = call_key("openai/x", {"temperature": 0}, [{"role": "user", "content": "hi"}])

    async def scenario():
        assert await worker_a.get(key) is None
        first = await worker_a.put(key, CachedCall("first", "openai/x", 10, 2, 0.001))
        second = await worker_b.put(key, CachedCall("second", "openai/x", 11, 3, 0.002))
        return first, second, await worker_b.get(key)

    first, second, seen = asyncio.run(scenario())
    assert first.text == second.text == seen.text == "first"  # the racer continues with it
    assert seen.prompt_tokens == 10 and seen.cost_usd == 0.001 and seen.created > 0
    assert len(worker_a) == 1
    worker_a.close()
    worker_b.close()


def test_one_cache_serves_many_event_loops(redis_prefix):
    """Workers run each unit in a fresh loop (asyncio.run): one cache object serves them all."""
    cache = RedisCallCache(TEST_REDIS_URL, prefix=redis_prefix)
    asyncio.run(cache.put("k", CachedCall("answer", "m")))
    assert asyncio.run(cache.get("k")).text == "answer"
    cache.close()


def test_redis_when_configured_else_sqlite_in_the_data_dir(settings, evaluation_dirs):
    settings.REDIS_URL = None
    local = open_call_cache()
    assert isinstance(local, SQLiteCallCache)
    assert local.path == evaluation_dirs / "call_cache.sqlite3"
    local.close()
    settings.REDIS_URL = TEST_REDIS_URL
    shared = open_call_cache()
    assert isinstance(shared, RedisCallCache)
    assert shared.prefix == settings.ATTUNE.evaluation_redis_prefix + "calls:"
    shared.close()
