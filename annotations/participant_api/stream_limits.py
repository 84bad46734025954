"""Open chat streams: at most one per participant, at most ``ATTUNE_MAX_STREAMS_PER_ADDRESS``
per client address (``attune_collect/client_address.py``).

Why: every stream holds one of its endpoint's slots while the model talks. 300 bot streams
from one machine once held them all and a participant waited 232 s for a first token; one
participant with two tabs would have two model calls at once. A stream takes its place before
the message is stored (a refused request changes nothing) and gives it back when it ends.

Counted in Redis when the cache is Redis (every web process shares the counts), else in this
process (the embedded setup runs one web process). A count cannot leak: in Redis the
participant's key and the address's sorted set member (scored by its expiry) lapse after
``ATTUNE_CHAT_TURN_LEASE_S`` unless the process that holds them renews them, every third of
that, for all its open streams at once; a crashed process's places are free within a lease.
In the process, the counts die with it.

Cost per stream: in the process a lock; in Redis one round trip (a script) before the stream and
one after its last event, plus one per lease beat for all of a process's streams.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from dataclasses import dataclass, field
from typing import Protocol

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.redis import RedisCache

from annotations.participant_api.db import run_in_db_thread
from annotations.services.chat import turn_lease
from annotations.services.errors import FlowError
from attune_collect.config import attune_config

logger = logging.getLogger(__name__)

STREAM_OPEN = "The reply to your message is still on its way (in this or another window)."
TOO_MANY_STREAMS = (
    "Too many conversations are open from your network right now. Please try again in a moment."
)
# What a refused address is told to wait: a reply's usual length.
TOO_MANY_RETRY_AFTER_S = 20

# KEYS: the participant's key, the address's sorted set. ARGV: the stream's token, ttl (ms),
# the address's cap. Returns 0 (taken), 1 (the participant has a stream), 2 (the address is full).
_OPEN = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ttl) then return 1 end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then
  redis.call('DEL', KEYS[1])
  return 2
end
redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[2], ttl)
return 0
"""
_CLOSE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('ZREM', KEYS[2], ARGV[1])
return 0
"""
# KEYS: pairs (participant key, address set); ARGV: ttl (ms), then each pair's token.
_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS, 2 do
  local token = ARGV[(i + 1) / 2 + 1]
  if redis.call('GET', KEYS[i]) == token then redis.call('PEXPIRE', KEYS[i], ttl) end
  if redis.call('ZADD', KEYS[i + 1], 'XX', 'CH', now + ttl, token) > 0 then
    redis.call('PEXPIRE', KEYS[i + 1], ttl)
  end
end
return 0
"""


@dataclass
class StreamTicket:
    """One open stream's place; ``close`` gives it back (once, from any thread)."""

    participant_id: int
    address: str
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    closed: bool = False
    _counts: StreamCounts | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def close(self) -> None:
        with self._lock:
            if self.closed:
                return
            self.closed = True
        assert self._counts is not None
        try:
            self._counts.release(self)
        except Exception:  # Redis away: the place lapses with its lease
            logger.exception("could not give back the stream place of a participant")

    @property
    def remote(self) -> bool:
        """Whether closing it is a round trip (then not on the event loop)."""
        return isinstance(self._counts, RedisStreamCounts)


class StreamCounts(Protocol):
    def take(self, ticket: StreamTicket, cap: int) -> int: ...  # 0 taken, 1 participant, 2 address

    def release(self, ticket: StreamTicket) -> None: ...


class LocalStreamCounts:
    """This process's open streams."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._participants: dict[int, str] = {}
        self._addresses: dict[str, set[str]] = {}

    def take(self, ticket: StreamTicket, cap: int) -> int:
        with self._lock:
            if ticket.participant_id in self._participants:
                return 1
            streams = self._addresses.setdefault(ticket.address, set())
            if len(streams) >= cap:
                return 2
            streams.add(ticket.token)
            self._participants[ticket.participant_id] = ticket.token
            return 0

    def release(self, ticket: StreamTicket) -> None:
        with self._lock:
            if self._participants.get(ticket.participant_id) == ticket.token:
                del self._participants[ticket.participant_id]
            streams = self._addresses.get(ticket.address)
            if streams is not None:
                streams.discard(ticket.token)
                if not streams:
                    del self._addresses[ticket.address]


class RedisStreamCounts:
    """The open streams of every web process, in the cache's Redis."""

    def __init__(self, backend: RedisCache) -> None:
        self._backend = backend
        # The cache's own client, as the throttles use it (throttling.py).
        client = backend._cache.get_client(write=True)
        self._open = client.register_script(_OPEN)
        self._close = client.register_script(_CLOSE)
        self._renew = client.register_script(_RENEW)

    def keys(self, ticket: StreamTicket) -> list[str]:
        return [
            self._backend.make_and_validate_key(f"stream:participant:{ticket.participant_id}"),
            self._backend.make_and_validate_key(f"stream:address:{ticket.address}"),
        ]

    def take(self, ticket: StreamTicket, cap: int) -> int:
        return int(self._open(keys=self.keys(ticket), args=[ticket.token, _ttl_ms(), cap]))

    def release(self, ticket: StreamTicket) -> None:
        self._close(keys=self.keys(ticket), args=[ticket.token])

    def renew(self, tickets: list[StreamTicket]) -> None:
        keys = [key for ticket in tickets for key in self.keys(ticket)]
        self._renew(keys=keys, args=[_ttl_ms(), *(ticket.token for ticket in tickets)])


def _ttl_ms() -> int:
    return max(1, int(turn_lease().total_seconds() * 1000))


_local = LocalStreamCounts()
_redis: dict[int, RedisStreamCounts] = {}


def stream_counts() -> StreamCounts:
    """Redis's counts when the cache is Redis, else this process's."""
    backend = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(backend, RedisCache):
        return _local
    counts = _redis.get(id(backend))
    if counts is None:
        counts = _redis[id(backend)] = RedisStreamCounts(backend)
    return counts


def open_stream(participant_id: int, address: str) -> StreamTicket:
    """Take a stream's place, or raise FlowError: ``turn_in_progress`` (409, the code the app
    already knows: a reply of this participant is streaming) when the participant has a
    stream open, ``too_many_streams`` (429) when the address has its cap."""
    counts = stream_counts()
    ticket = StreamTicket(participant_id, address, _counts=counts)
    outcome = counts.take(ticket, attune_config().max_streams_per_address)
    if outcome == 1:
        raise FlowError("turn_in_progress", STREAM_OPEN)
    if outcome == 2:
        raise FlowError(
            "too_many_streams", TOO_MANY_STREAMS, data={"retry_after": TOO_MANY_RETRY_AFTER_S}
        )
    return ticket


class StreamPlace:
    """A stream's place while the request is prepared on the database pool: the pool's step
    takes it (``hold``); if the view is cancelled meanwhile (the client left), ``abandon``
    gives it back, now or when the step ends, since the step's result never arrives."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.ticket: StreamTicket | None = None
        self._abandoned = False

    def hold(self, ticket: StreamTicket) -> bool:
        """Keep the ticket; False (and the ticket given back) if the view was cancelled."""
        with self._lock:
            self.ticket = ticket
            abandoned = self._abandoned
        if abandoned:
            ticket.close()
        return not abandoned

    def abandon(self) -> None:
        with self._lock:
            self._abandoned = True
            ticket = self.ticket
        if ticket is not None:
            ticket.close()


async def close_stream(ticket: StreamTicket) -> None:
    """Give the place back at the stream's end: a Redis round trip goes to the participant
    API's thread pool (its threads already run; a thread started per stream would cost more)."""
    if ticket.remote:
        await run_in_db_thread(ticket.close)
    else:
        ticket.close()


# -- renewal: the Redis places of this loop's open streams, every third of the lease ----------


class _Keeper:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.tickets: dict[str, StreamTicket] = {}
        self.task: asyncio.Task[None] | None = None

    def keep(self, ticket: StreamTicket) -> None:
        self.tickets[ticket.token] = ticket
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._renew_while_any())

    async def _renew_while_any(self) -> None:
        try:
            while self.tickets:
                await asyncio.sleep(turn_lease().total_seconds() / 3)
                # Closed tickets are dropped here, on the loop (they close on any thread).
                self.tickets = {k: t for k, t in list(self.tickets.items()) if not t.closed}
                beat = list(self.tickets.values())
                if not beat:
                    break
                counts = beat[0]._counts
                assert isinstance(counts, RedisStreamCounts)
                try:
                    await run_in_db_thread(counts.renew, beat)
                except Exception:  # a Redis hiccup: try again at the next beat
                    logger.exception("could not renew the places of %d open streams", len(beat))
        finally:
            if _keepers.get(self.loop) is self:
                del _keepers[self.loop]


_keepers: dict[asyncio.AbstractEventLoop, _Keeper] = {}


def keep_renewed(ticket: StreamTicket) -> None:
    """Renew the ticket's Redis place while it is open (nothing to renew in the process)."""
    if not ticket.remote:
        return
    loop = asyncio.get_running_loop()
    keeper = _keepers.get(loop)
    if keeper is None:
        keeper = _keepers[loop] = _Keeper(loop)
    keeper.keep(ticket)
