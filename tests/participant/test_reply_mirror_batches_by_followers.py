"""A reply's progress is written to Redis once a second while nobody on another web process
reads it (a re-attach there is rare), and five times a second once someone does: the writer
learns of a follower from the mark the follower sets, in the answer of its own round trip."""

from __future__ import annotations

import asyncio
import secrets

import pytest
import redis.asyncio as aioredis

from annotations.participant_api import reply_mirror

DEADLINE_S = 10.0  # far below the quiet batch the tests set: only the fast batch meets it


@pytest.fixture
def slow_quiet_batches(monkeypatch) -> None:
    if not reply_mirror.redis_url():
        pytest.skip("a reply's progress is mirrored to Redis only when REDIS_URL is set")
    monkeypatch.setattr(reply_mirror, "QUIET_BATCH_S", 600.0)
    monkeypatch.setattr(reply_mirror, "FOLLOWED_BATCH_S", 0.01)


def _turn_id() -> int:
    return 2 * 10**9 + secrets.randbelow(10**8)


async def _cleanup(turn_id: int) -> None:
    async with aioredis.Redis.from_url(reply_mirror.redis_url() or "") as client:
        await client.delete(
            reply_mirror.stream_key(turn_id, 1), reply_mirror.followed_key(turn_id, 1)
        )


async def _followed_reply(turn_id: int) -> list[tuple[str, object]]:
    async def alive() -> bool:
        return True

    seen: list[tuple[str, object]] = []
    texts = asyncio.Event()

    async def follow() -> None:
        async for kind, value in reply_mirror.redis_items(turn_id, 1, alive):
            seen.append((kind, value))
            if kind == "text":
                texts.set()
                return

    follower = asyncio.create_task(follow())
    async with aioredis.Redis.from_url(reply_mirror.redis_url() or "") as client:
        async with asyncio.timeout(DEADLINE_S):
            while not await client.exists(reply_mirror.followed_key(turn_id, 1)):
                await asyncio.sleep(0.01)  # polling a key, bounded by the deadline
    mirror = reply_mirror.ReplyMirror(turn_id, 1)
    mirror.add("turn", b"event: turn\n\n")  # written at once; its answer shows the follower
    async with asyncio.timeout(DEADLINE_S):
        while not mirror.followed:
            await asyncio.sleep(0.01)
    mirror.add("text", "still here")
    async with asyncio.timeout(DEADLINE_S):  # the quiet batch (600 s) would miss this
        await texts.wait()
    mirror.close()
    await follower
    await asyncio.wait_for(mirror._task, DEADLINE_S)
    await _cleanup(turn_id)
    return seen


def test_a_follower_gets_the_text_in_fast_batches(slow_quiet_batches):
    seen = asyncio.run(_followed_reply(_turn_id()))
    assert [kind for kind, _ in seen] == ["turn", "text"]
    assert seen[-1][1] == "still here"


async def _unfollowed_reply(turn_id: int) -> tuple[int, bool]:
    mirror = reply_mirror.ReplyMirror(turn_id, 1)
    mirror.add("turn", b"event: turn\n\n")
    for piece in ("a", "b", "c"):
        mirror.add("text", piece)
    mirror.add("end", b"event: done\n\n")
    mirror.close()  # the end is written at once, not after the quiet batch
    await asyncio.wait_for(mirror._task, DEADLINE_S)
    await _cleanup(turn_id)
    return mirror.round_trips, mirror.followed


def test_an_unfollowed_reply_is_written_in_few_round_trips_and_ends_at_once(slow_quiet_batches):
    round_trips, followed = asyncio.run(_unfollowed_reply(_turn_id()))
    assert not followed
    assert round_trips <= 2  # the turn, then the text and the end together
