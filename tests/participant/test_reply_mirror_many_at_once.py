"""Hundreds of replies mirrored at once: every run's progress reaches its Redis Stream, whatever
the size of the connection pool (writers wait for a free connection; redis-py's default pool
raised MaxConnectionsError past 100 connections and the progress was lost, logged only)."""

from __future__ import annotations

import asyncio
import logging
import secrets

import pytest
import redis

from annotations.participant_api import reply_mirror

REPLIES = 300


@pytest.fixture
def redis_url() -> str:
    url = reply_mirror.redis_url()
    if not url:
        pytest.skip("a reply's progress is mirrored to Redis only when REDIS_URL is set")
    return url


async def _mirror_all(turn_ids: list[int]) -> None:
    mirrors = [reply_mirror.ReplyMirror(turn_id, 9) for turn_id in turn_ids]
    for mirror in mirrors:
        mirror.add("turn", b"event: turn\n\n")
    for mirror in mirrors:
        mirror.add("text", "all of it")
        mirror.add("end", b"event: done\n\n")
        mirror.close()
    await asyncio.wait_for(asyncio.gather(*(m._task for m in mirrors)), timeout=60)


def test_every_reply_reaches_its_stream(redis_url, caplog, monkeypatch):
    monkeypatch.setattr(reply_mirror, "WRITE_CONNECTIONS", 4)  # far fewer than the replies
    base = 10**9 + secrets.randbelow(10**8)
    turn_ids = [base + n for n in range(REPLIES)]
    with caplog.at_level(logging.ERROR, logger=reply_mirror.__name__):
        asyncio.run(_mirror_all(turn_ids))
    assert not caplog.records  # nothing "could not write"
    keys = [reply_mirror.stream_key(turn_id, 9) for turn_id in turn_ids]
    with redis.Redis.from_url(redis_url) as client:
        kinds = [[fields[b"k"] for _, fields in client.xrange(key)] for key in keys]
        client.delete(*keys)
    assert all(k == [b"turn", b"text", b"end"] for k in kinds)
