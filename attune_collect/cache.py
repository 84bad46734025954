"""Django's Redis cache with one client, and so one connection pool, per process.

Django keeps its cache objects in a context-local store: under ASGI every request runs in a
context of its own, so ``caches["default"]`` built a new ``RedisCache`` for every request, with
a new client, a new connection pool and a new TCP connection to Redis (connect, health check,
client name), and redis-py looked its own version up in the installed packages' metadata for
each one. Every participant API request uses the cache (the throttles count in it), two per
chat message: measured side by side with ``benchmarks/chat_load.py`` on PostgreSQL and Redis
(20 participants x 12 messages), Django's backend opened about 450 Redis connections in the
phase where this one opened 2, and cost 66 ms of CPU per message against 47 ms
(docs/benchmarks.md, "Django adapter layers side by side").

``SharedRedisCache`` keeps Django's behaviour in every other respect; only the client is
shared by all the instances of one configuration in a process. redis-py's connection pool is
thread-safe and starts afresh in a forked child (a Celery worker process), so sharing it is
what the library intends.

Django's client also builds a new ``redis.Redis`` around that pool for every cache operation,
and redis-py's constructor copies its table of about 170 response callbacks each time: four
times per chat message (each throttle reads, then writes). ``SharedRedisCacheClient`` keeps one
``redis.Redis`` per pool; a ``redis.Redis`` is thread-safe (each command takes a connection
from the pool), so that is what the library intends too.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients_lock = threading.Lock()  # making a client, of either kind: once per process


class SharedRedisCacheClient(RedisCacheClient):
    """Django's client, with one ``redis.Redis`` per connection pool instead of one per call."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._redis_clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # not in django-stubs
        client = self._redis_clients.get(id(pool))
        if client is None:  # once per pool: the lock only where the client is made
            with _clients_lock:
                client = self._redis_clients.get(id(pool))
                if client is None:
                    client = self._redis_clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]  # not in django-stubs
        return client


_clients: dict[tuple[tuple[str, ...], str], RedisCacheClient] = {}


class SharedRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose client is made once per process."""

    @cached_property
    def _cache(self) -> RedisCacheClient:
        # Django's own parse of the configuration (not in django-stubs). The options are plain
        # settings (strings, numbers, classes), so their repr is a stable key.
        servers: list[str] = self._servers  # type: ignore[attr-defined]  # not in django-stubs
        options: dict[str, Any] = self._options  # type: ignore[attr-defined]  # not in django-stubs
        key = (tuple(servers), repr(sorted(options.items())))
        client = _clients.get(key)
        if client is None:  # once per process: the lock only where the client is made
            with _clients_lock:
                client = _clients.get(key)
                if client is None:
                    client = _clients[key] = SharedRedisCacheClient(servers, **options)
        return client
