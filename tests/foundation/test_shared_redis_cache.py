"""The Redis cache keeps one client, and so one connection pool, per process (attune_collect/
cache.py): Django builds a cache object per request context under ASGI, and each used to open
a connection of its own. Against the real Redis the suite runs with (db 15 by default)."""

import contextvars
import os
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.cache.backends.redis import RedisCache

from attune_collect import cache as shared_cache
from attune_collect.cache import SharedRedisCache

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
REQUESTS = 40
THREADS = 4


@pytest.fixture
def location():
    """A server list of this test's own (a query string Redis ignores), so the process-wide
    client it makes is not another test's."""
    url = f"{REDIS_URL}?client_name=attune-test-{uuid.uuid4().hex[:8]}"
    yield url
    for key in [key for key in shared_cache._clients if key[0] == (url,)]:
        for pool in shared_cache._clients.pop(key)._pools.values():
            pool.disconnect()


def request_like(location: str, key: str) -> int:
    """What a participant API request does: a cache object of its own context, a count."""
    cache = SharedRedisCache(location, {"KEY_PREFIX": "attune-test"})
    cache.set(key, cache.get(key, 0) + 1, timeout=30)
    return id(cache._cache)


def test_every_request_context_uses_the_same_client_and_few_connections(location):
    key = f"count-{uuid.uuid4().hex}"
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        client_ids = set(
            pool.map(
                lambda _: contextvars.copy_context().run(request_like, location, key),
                range(REQUESTS),
            )
        )
    assert len(client_ids) == 1
    (client,) = [c for k, c in shared_cache._clients.items() if k[0] == (location,)]
    (connection_pool,) = client._pools.values()
    # One connection per thread at most, where Django's own backend opened one per request.
    assert connection_pool._created_connections <= THREADS
    reader = SharedRedisCache(location, {"KEY_PREFIX": "attune-test"})
    assert reader.get(key) is not None  # the values are Redis's, whoever wrote them


def test_django_backend_would_open_a_connection_per_request_context(location):
    """The behaviour the shared client replaces, so the test above measures a real difference."""
    caches = [RedisCache(location, {}) for _ in range(3)]
    for cache in caches:
        cache.get("anything")
    assert len({id(cache._cache) for cache in caches}) == 3
    for cache in caches:
        for pool in cache._cache._pools.values():
            pool.disconnect()


def test_different_options_get_different_clients(location):
    plain = SharedRedisCache(location, {})
    with_options = SharedRedisCache(location, {"OPTIONS": {"socket_timeout": 5}})
    assert plain._cache is SharedRedisCache(location, {})._cache
    assert plain._cache is not with_options._cache


def test_every_operation_uses_the_same_redis_client(location):
    """Django's client built a ``redis.Redis`` for every get and set (four per chat message);
    the shared client keeps one per connection pool, used from several threads at once."""
    cache = SharedRedisCache(location, {"KEY_PREFIX": "attune-test"})
    key = f"count-{uuid.uuid4().hex}"
    cache.get(key)  # Django makes its connection pool at first use, without a lock: made here
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        redis_clients = set(
            pool.map(lambda _: id(cache._cache.get_client(key, write=True)), range(REQUESTS))
        )
        list(pool.map(lambda i: cache.set(f"{key}-{i}", i, timeout=30), range(REQUESTS)))
    assert len(redis_clients) == 1
    assert cache.get_many([f"{key}-{i}" for i in range(REQUESTS)]) == {
        f"{key}-{i}": i for i in range(REQUESTS)
    }
