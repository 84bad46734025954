"""The call cache every worker shares: Redis when REDIS_URL is set, else SQLite in the data dir.

``RedisCallCache`` implements the engine's ``CallCache`` contract (attunebench/cache.py)
on any number of machines: ``get`` is GET, ``put`` is SET NX (first writer wins) followed, only
when another worker got there first, by GET of the winner's answer. Values are JSON.

It uses redis-py's synchronous client on purpose: workers run each unit in a fresh event loop
(``asyncio.run``), and one thread-safe client (with its connection pool) serves every loop
without being tied to any; ``close`` is synchronous in the contract. A local Redis answers in
well under a millisecond, which is nothing beside a model call. Like the SQLite cache, an entry
is stored before ``put`` returns, so a worker killed right after an answer loses nothing.

No expiry by default: entries are immutable and keyed by content (``ttl_s`` trades a repeated
call for memory, if a deployment wants that).
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import asdict

import redis

from attune_collect.config import attune_config, redis_url
from attunebench.cache import CachedCall, CallCache, SQLiteCallCache
from attunebench.executor import CallPool
from evaluation.gateway import evaluation_gateway

# Without Redis: one SQLite file in the evaluations folder, shared by the machine's workers.
SQLITE_CACHE_NAME = "call_cache.sqlite3"


class RedisCallCache:
    def __init__(
        self,
        url: str | None = None,
        *,
        prefix: str = "attune:evaluation:",
        ttl_s: int | None = None,
        client: redis.Redis | None = None,
    ) -> None:
        self._owns_client = client is None
        if client is None:
            if url is None:
                raise ValueError("RedisCallCache needs a URL or a client")
            client = redis.Redis.from_url(url)
        self._client = client
        self.prefix = f"{prefix}calls:"
        self.ttl_s = ttl_s

    def redis_key(self, key: str) -> str:
        return self.prefix + key

    async def get(self, key: str) -> CachedCall | None:
        raw = self._client.get(self.redis_key(key))
        return None if raw is None else _decode(raw)

    async def put(self, key: str, entry: CachedCall) -> CachedCall:
        stored = CachedCall(
            entry.text,
            entry.model,
            entry.prompt_tokens,
            entry.completion_tokens,
            entry.cost_usd,
            entry.created or time.time(),
        )
        name = self.redis_key(key)
        if self._client.set(name, json.dumps(asdict(stored)), nx=True, ex=self.ttl_s):
            return stored
        raw = self._client.get(name)  # another worker answered first: continue with its answer
        return stored if raw is None else _decode(raw)

    def __len__(self) -> int:
        return sum(1 for _ in self._client.scan_iter(match=self.prefix + "*", count=1000))

    def close(self) -> None:
        if self._owns_client:
            self._client.close()


def _decode(raw: bytes | str) -> CachedCall:
    return CachedCall(**json.loads(raw))


def open_call_cache() -> CallCache:
    """The cache for this deployment: shared through Redis across machines, or through one
    SQLite file by the workers of one machine. The caller closes it."""
    url = redis_url()
    if url:
        return RedisCallCache(url, prefix=attune_config().evaluation_redis_prefix)
    return SQLiteCallCache(attune_config().evaluations_dir / SQLITE_CACHE_NAME)


_pool_lock = threading.Lock()
_pool: tuple[tuple[object, ...], CallPool] | None = None


def process_call_pool() -> CallPool:
    """The worker process's one call pool: every unit the process runs shares its
    tokens-per-minute windows and joins its identical calls in flight, whatever event loop or
    thread runs the unit. Made on first use in each process (after a fork, a new one), and
    made again if the deployment's cache or gateway changes (tests switch data folders)."""
    global _pool
    gateway = evaluation_gateway()
    key = (
        os.getpid(),
        redis_url(),
        attune_config().evaluation_redis_prefix,
        str(attune_config().evaluations_dir),
        id(gateway),
    )
    with _pool_lock:
        if _pool is not None and _pool[0] == key:
            return _pool[1]
        stale = _pool
        _pool = (key, CallPool(open_call_cache(), gateway))
    if stale is not None and stale[0][0] == os.getpid():
        stale[1].close()
    return _pool[1]
