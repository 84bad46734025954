"""A sliding-window request count in Redis: one round trip, atomic across processes.

DRF's ``SimpleRateThrottle`` reads a caller's request history from the cache and writes it back:
two Redis round trips per throttled request (two throttles per chat message, one of them on the
way to the model's first token), and two requests of one participant served at the same moment
by two web processes both read the same history and both pass. ``count_in_window`` applies the
same rule (the requests of the last ``duration`` seconds; this one is counted only if admitted)
as one Lua script, which Redis runs alone: one round trip, and no two callers see the same count.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any

# KEYS[1]: the window's sorted set (score: when each admitted request was made).
# ARGV: now, duration (seconds), limit, a member unique to this request.
# Returns {admitted (1/0), requests in the window (this one included if admitted), oldest}; the
# oldest as a string (Redis turns Lua numbers into integers), "" for an empty window.
_SCRIPT = """
local now = tonumber(ARGV[1])
local duration = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - duration)
local count = redis.call('ZCARD', KEYS[1])
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2] or ''
if count >= tonumber(ARGV[3]) then
  return {0, count, oldest}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], math.ceil(duration * 1000))
if oldest == '' then oldest = ARGV[1] end
return {1, count + 1, oldest}
"""

_script: Any = None  # redis-py's Script: its digest, and the script loaded on first use
_script_lock = threading.Lock()


@dataclass(frozen=True)
class WindowCount:
    admitted: bool
    count: int  # requests in the window, this one included if it was admitted
    oldest: float | None  # when the oldest of them was made (None: the window is empty)


def count_in_window(client: Any, key: str, now: float, duration: float, limit: int) -> WindowCount:
    """Admit a request made at ``now`` if fewer than ``limit`` were admitted in the
    ``duration`` seconds before it, and count it; ``client`` is a ``redis.Redis``."""
    global _script
    if _script is None:
        with _script_lock:
            if _script is None:
                # Each call names its client: the one registering only encodes the script.
                _script = client.register_script(_SCRIPT)
    script = _script
    member = f"{now!r}:{os.urandom(6).hex()}"  # two requests in the same microsecond both count
    admitted, count, oldest = script(
        keys=[key], args=[repr(now), duration, limit, member], client=client
    )
    return WindowCount(
        admitted=bool(admitted), count=int(count), oldest=float(oldest) if oldest else None
    )
