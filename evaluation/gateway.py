"""The LLM gateway of evaluation workers: the process's gateway, with shared rate limits.

With Redis, a model's requests-per-minute limit is booked in Redis, so it holds for the sum of
all workers (a provider's quota is per account, not per process). Without Redis (one machine,
the embedded setup) the platform's default gateway and its per-process limits serve.

One gateway per process, created on first use: its limiters and usage ledger only mean
something when every evaluation call of the process goes through it.
"""

from __future__ import annotations

import threading

import redis

from attune_collect.config import attune_config, redis_url
from attune_collect.llm import LLMGateway, default_gateway
from evaluation.rate_limits import RedisRateLimiterFactory

_lock = threading.Lock()
_gateways: dict[tuple[str, str], LLMGateway] = {}


def evaluation_gateway() -> LLMGateway:
    url = redis_url()
    if not url:
        return default_gateway()
    key = (url, attune_config().evaluation_redis_prefix)
    with _lock:
        gateway = _gateways.get(key)
        if gateway is None:
            factory = RedisRateLimiterFactory(
                redis.Redis.from_url(url), attune_config().evaluation_redis_prefix
            )
            gateway = _gateways[key] = LLMGateway(rate_limiter_factory=factory)
        return gateway
