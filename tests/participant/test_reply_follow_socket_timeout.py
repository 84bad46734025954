"""A follower's blocking read of a reply's Redis Stream (XREAD, up to BLOCK_MS) is never cut
by the connection's own socket timeout (redis-py's default, 5 s, equals the block: CI saw a
re-attach fail with "Timeout reading from 127.0.0.1:6379" on a loaded host)."""

from __future__ import annotations

import asyncio

from annotations.participant_api import reply_mirror


def _socket_timeout(use: str) -> float | None:
    async def read() -> float | None:
        client = reply_mirror._client(use)
        try:
            return client.connection_pool.connection_kwargs.get("socket_timeout")
        finally:
            await client.aclose()

    return asyncio.run(read())


def test_a_follower_waits_out_its_block_with_room_to_spare(settings):
    settings.REDIS_URL = "redis://127.0.0.1:6379/14"  # parsed only: nothing is connected
    assert _socket_timeout("follow") >= reply_mirror.BLOCK_MS / 1000 + 5
