"""Django's Redis cache with one client, and so one connection pool, per process.

Django keeps its cache objects in a context-local store: under ASGI every request runs in a
context of its own, so ``caches["default"]`` built a new ``RedisCache`` for every request, with
a new client, a new connection pool and a new TCP connection to Redis (connect, health check,
client name), and redis-py looked its own version up in the installed packages' metadata for
each one. Every participant API request uses the cache (the throttles count in it), two per
chat message: measured side by side with ``benchmarks/chat_load.py`` on PostgreSQL and Redis
(20 participants x 12 messages), Django's backend opened about 450 Redis connections in the
phase where this one opened 2, and cost 66 ms of CPU per message against 47 ms
(docs/benchmarks.md, "Stop 16").

``SharedRedisCache`` keeps Django's behaviour in every other respect; only the client is
shared by all the instances of one configuration in a process. redis-py's connection pool is
thread-safe and starts afresh in a forked child (a Celery worker process), so sharing it is
what the library intends.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple[tuple[str, ...], str], RedisCacheClient] = {}
_clients_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose client is made once per process."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        # Parsed as Django parses them; the options are plain settings (strings, numbers,
        # classes), so their repr is a stable key.
        self._shared_servers = re.split("[;,]", server) if isinstance(server, str) else server
        self._shared_options: dict[str, Any] = params.get("OPTIONS", {})
        self._client_key = (tuple(self._shared_servers), repr(sorted(self._shared_options.items())))

    @cached_property
    def _cache(self) -> RedisCacheClient:
        with _clients_lock:
            client = _clients.get(self._client_key)
            if client is None:
                client = RedisCacheClient(self._shared_servers, **self._shared_options)
                _clients[self._client_key] = client
        return client
