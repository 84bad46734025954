"""Requests-per-minute limits that hold across every worker process and machine, through Redis.

The same GCRA booking as ``attune_collect.llm.limits.RequestRateLimiter`` (and the same
``reserve()`` / ``acquire()`` interface, so the gateway takes either), but the theoretical
arrival time lives in one Redis key per (endpoint, rate) and is advanced by a Lua script, which
Redis runs atomically: two workers can never book the same start slot. The script reads Redis's
own clock (TIME), so workers on machines with skewed clocks still share one schedule; a test
may give the limiter a clock of its own instead, which the script then reads from its arguments.

A booking is never given back: a cancelled wait loses its slot, exactly like the local limiter.
The key expires once its schedule is in the past, so idle endpoints leave nothing behind.
"""

from __future__ import annotations

import asyncio

import redis

from attune_collect.llm.limits import Clock, RequestRateLimiter, Sleep

# KEYS[1]: the endpoint's key. ARGV: interval (s), burst, and optionally the time now (s; Redis's
# own clock when absent). Returns the wait (s) as a string, since Redis would truncate a Lua
# number to an integer.
_RESERVE = """
local now
if ARGV[3] then
  now = tonumber(ARGV[3])
else
  local now_parts = redis.call('TIME')
  now = tonumber(now_parts[1]) + tonumber(now_parts[2]) / 1000000
end
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local allowed_at = tat - (burst - 1) * interval
local new_tat = tat + interval
redis.call('SET', KEYS[1], string.format('%.6f', new_tat),
           'PX', math.ceil((new_tat - now) * 1000) + 1000)
local wait = allowed_at - now
if wait < 0 then wait = 0 end
return string.format('%.6f', wait)
"""


class RedisRequestRateLimiter:
    """At most ``per_minute`` request starts per minute for one endpoint, across all workers."""

    def __init__(
        self,
        client: redis.Redis,
        key: str,
        per_minute: int,
        *,
        burst: int = 1,
        sleep: Sleep = asyncio.sleep,
        clock: Clock | None = None,
    ) -> None:
        if per_minute <= 0 or burst < 1:
            raise ValueError("per_minute must be positive and burst at least 1")
        self.key = key
        self.interval_s = 60.0 / per_minute
        self._burst = burst
        self._sleep = sleep
        self._clock = clock  # None: Redis's clock, shared by every worker
        self._script = client.register_script(_RESERVE)

    def reserve(self) -> float:
        """Book the next start slot; returns how long the caller must wait for it."""
        args: list[str | int] = [repr(self.interval_s), self._burst]
        if self._clock is not None:
            args.append(repr(self._clock()))
        return float(self._script(keys=[self.key], args=args))

    # Waiting is the local limiter's: sleep for what ``reserve`` booked (a cancelled wait loses
    # its slot), so the two limiters differ only in where the schedule lives.
    acquire = RequestRateLimiter.acquire


class RedisRateLimiterFactory:
    """The gateway's ``rate_limiter_factory``: one shared limiter per (endpoint, rate)."""

    def __init__(
        self,
        client: redis.Redis,
        prefix: str,
        *,
        sleep: Sleep = asyncio.sleep,
        clock: Clock | None = None,
    ) -> None:
        self._client = client
        self._prefix = f"{prefix}rpm:"
        self._sleep = sleep
        self._clock = clock

    def __call__(self, endpoint_name: str, per_minute: int) -> RedisRequestRateLimiter:
        key = f"{self._prefix}{endpoint_name}:{per_minute}"
        return RedisRequestRateLimiter(
            self._client, key, per_minute, sleep=self._sleep, clock=self._clock
        )
