"""A reply's progress where every web process can read it: a Redis Stream per turn and claim,
when ``REDIS_URL`` is set (without it the platform runs one web process, and ``reply_runs.py``
keeps the progress in the process alone).

A reply is mirrored only when someone on another web process follows it (a re-attach after a
reload or a dropped connection that the load balancer sends elsewhere): the follower publishes a
request on the deployment's follow channel (``reply_messages.py``), and the process running the
reply writes what it has said so far, then the rest. Replies nobody follows from elsewhere, nearly
all of them, cost no Redis write: writing every reply's progress five times a second cost 12 ms
of the web process's 41 ms of CPU per message (benchmarks/chat_load.py, side by side).

Writes are batched: the run's pieces of text are gathered for ``BATCH_S`` and written as one
entry (an ``XADD`` and a ``PEXPIRE`` in one round trip, on the event loop through redis's asyncio
client); the ``turn`` event and the last one are written at once. The stream expires ``TTL_S``
after its last write: by then the reply is stored and a re-attach reads the turn from the
database.

Entries: ``k`` the kind (turn, text, queued, end) and ``v`` the event's bytes or the text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from attune_collect.config import redis_url

logger = logging.getLogger(__name__)

BATCH_S = 0.2  # five round trips a second per followed reply (about 0.12 ms of CPU each)
TTL_S = 600
BLOCK_MS = 5000  # a follower's longest wait in one read; then it checks the turn again
KEY_PREFIX = "attune:reply:"
FOLLOW_PREFIX = "attune:reply:follow:"

# Connections of a loop's pools. Writers hold one for a pipeline's round trip; a follower
# holds one for up to BLOCK_MS in XREAD. Both pools wait for a free connection (up to
# POOL_WAIT_S) instead of failing: redis-py's default pool raises MaxConnectionsError past 100
# connections, which lost the progress of replies at 200 streams (benchmarks/chat_load.py).
WRITE_CONNECTIONS = 32
FOLLOW_CONNECTIONS = 512
POOL_WAIT_S = 10.0
# redis-py gives a connection a 5 s socket timeout by default: as long as BLOCK_MS, so a
# follower's XREAD that the server answers on time could still fail on a loaded host (CI saw
# it). A follower's socket waits out the block with room to spare.
FOLLOW_SOCKET_TIMEOUT_S = BLOCK_MS / 1000 + 10.0

_clients: dict[tuple[asyncio.AbstractEventLoop, str], Any] = {}


def _client(use: str = "write") -> Any:
    """Redis's asyncio client of this loop for ``use`` ("write" or "follow"): a connection pool
    belongs to one loop, and followers' blocking reads must not starve the writers."""
    import redis.asyncio as aioredis

    key = (asyncio.get_running_loop(), use)
    client = _clients.get(key)
    if client is None:
        pool = aioredis.BlockingConnectionPool.from_url(
            redis_url() or "",
            max_connections=WRITE_CONNECTIONS if use == "write" else FOLLOW_CONNECTIONS,
            timeout=POOL_WAIT_S,
            **({"socket_timeout": FOLLOW_SOCKET_TIMEOUT_S} if use == "follow" else {}),
        )
        client = _clients[key] = aioredis.Redis(connection_pool=pool)
    return client


def stream_key(turn_id: int, claim: int) -> str:
    return f"{KEY_PREFIX}{turn_id}:{claim}"


def deployment() -> str:
    """This deployment's name on Redis's channels: they are shared by all of a server's
    numbered databases, so two platforms on one Redis (or two test runs) are told apart by
    database."""
    from django.db import connection

    return str(connection.settings_dict["NAME"])


def follow_channel() -> str:
    """Where a follower asks the process running a reply to mirror it (``reply_messages.py``)."""
    return f"{FOLLOW_PREFIX}{deployment()}"


class ReplyMirror:
    """Writes one run's items to its Redis Stream, in order, text batched."""

    def __init__(self, turn_id: int, claim: int) -> None:
        self.key = stream_key(turn_id, claim)
        self._pending: list[tuple[str, bytes | str]] = []
        self._wake = asyncio.Event()
        self._closed = False
        self._closed_event: asyncio.Event | None = None
        self._task = asyncio.get_running_loop().create_task(self._write())
        self.round_trips = 0

    def add(self, kind: str, value: bytes | str) -> None:
        if self._pending and kind == "text" and self._pending[-1][0] == "text":
            self._pending[-1] = ("text", self._pending[-1][1] + value)  # type: ignore[operator]  # text after text: both str (the kind says which)
        else:
            self._pending.append((kind, value))
        self._wake.set()

    def close(self) -> None:
        self._closed = True
        self._wake.set()
        if self._closed_event is not None:
            self._closed_event.set()

    async def _closing(self) -> None:
        """Returns when the run ends (its last items are written at once, not after a batch)."""
        if self._closed_event is None:
            self._closed_event = asyncio.Event()
            if self._closed:
                self._closed_event.set()
        await self._closed_event.wait()

    async def _write(self) -> None:
        client = _client()
        while True:
            await self._wake.wait()
            self._wake.clear()
            if not self._closed and all(kind == "text" for kind, _ in self._pending):
                # Gather the next tokens into the same entry (or until the run ends).
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._closing(), timeout=BATCH_S)
            batch, self._pending = self._pending, []
            if batch:
                try:
                    async with client.pipeline(transaction=False) as pipe:
                        for kind, value in batch:
                            pipe.xadd(self.key, {"k": kind, "v": value})
                        pipe.pexpire(self.key, TTL_S * 1000)
                        await pipe.execute()
                    self.round_trips += 1
                except Exception:  # Redis away: followers on this process still read the run
                    logger.exception("could not write the progress of %s", self.key)
            if self._closed and not self._pending:
                return


async def redis_items(
    turn_id: int, claim: int, alive: Callable[[], Awaitable[bool]]
) -> AsyncIterator[tuple[Any, bytes | str]]:
    """A run's items from its Redis Stream, from the start; ends after ``end``, or with
    nothing more when the stream stays silent for ``BLOCK_MS`` and ``alive()`` says the run is
    gone (its turn settled or its process dead: the caller reads the turn)."""
    client = _client("follow")
    key = stream_key(turn_id, claim)
    channel, request = follow_channel(), f"{turn_id}:{claim}"
    last_id = "0"
    await client.publish(channel, request)  # the run's process starts mirroring it
    while True:
        answer = await client.xread({key: last_id}, block=BLOCK_MS, count=200)
        if not answer:
            await client.publish(channel, request)  # in case the first request was lost
            if await alive():
                continue
            return
        for entry_id, fields in answer[0][1]:
            last_id = entry_id
            kind = fields[b"k"].decode()
            value = fields[b"v"]
            yield kind, (value.decode() if kind == "text" else value)
            if kind == "end":
                return
