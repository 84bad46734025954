"""A reply is mirrored to Redis only when someone on another web process follows it: a run
nobody follows from elsewhere writes nothing, and a follower's request (on the follow channel,
through the process's listener) gets what the run said so far, then the rest, then the end."""

from __future__ import annotations

import asyncio
import secrets
from types import SimpleNamespace

import pytest
import redis

from annotations.participant_api import reply_messages, reply_mirror, reply_runs

DEADLINE_S = 20.0

pytestmark = pytest.mark.django_db  # the channels are named after the test database


@pytest.fixture
def redis_client():
    url = reply_mirror.redis_url()
    if not url:
        pytest.skip("a reply's progress is mirrored to Redis only when REDIS_URL is set")
    with redis.Redis.from_url(url) as client:
        yield client


def _plan(turn_id: int) -> SimpleNamespace:
    return SimpleNamespace(turn_id=turn_id, claim=1, replay=None)  # what start() reads


async def _producer(steps: asyncio.Queue) -> object:
    while (item := await steps.get()) is not None:
        yield item


async def _run_unfollowed(turn_id: int) -> reply_runs.Run:
    steps: asyncio.Queue = asyncio.Queue()
    run = reply_runs.start(_plan(turn_id), 7, _producer(steps), None, lambda reason: b"")
    for item in (("turn", b"event: turn\n\n"), ("text", "a"), ("text", "b")):
        await steps.put(item)
    await steps.put(("end", b"event: done\n\n"))
    await steps.put(None)
    await asyncio.wait_for(run.task, DEADLINE_S)
    return run


def test_a_reply_nobody_follows_writes_nothing_to_redis(redis_client):
    turn_id = 3 * 10**9 + secrets.randbelow(10**8)
    run = asyncio.run(_run_unfollowed(turn_id))
    assert run.parts == ["a", "b"] and run.mirror is None
    assert not redis_client.exists(reply_mirror.stream_key(turn_id, 1))


async def _run_followed(turn_id: int) -> list[tuple[str, object]]:
    async def alive() -> bool:
        return True

    steps: asyncio.Queue = asyncio.Queue()
    run = reply_runs.start(_plan(turn_id), 7, _producer(steps), None, lambda reason: b"")
    await steps.put(("turn", b"event: turn\n\n"))
    await steps.put(("text", "said "))
    await steps.put(("text", "before "))
    async with asyncio.timeout(DEADLINE_S):
        while len(run.parts) < 2:
            await run.changed()
    seen: list[tuple[str, object]] = []
    mirrored = asyncio.Event()

    async def follow() -> None:  # as a re-attach on another web process does
        async for kind, value in reply_mirror.redis_items(turn_id, 1, alive):
            seen.append((kind, value))
            mirrored.set()

    follower = asyncio.create_task(follow())
    async with asyncio.timeout(DEADLINE_S):
        await mirrored.wait()  # the request crossed the channel: the mirror began
    await steps.put(("text", "and after"))
    await steps.put(("end", b"event: done\n\n"))
    await steps.put(None)
    await asyncio.wait_for(follower, DEADLINE_S)
    await asyncio.wait_for(run.task, DEADLINE_S)
    return seen


def test_a_followed_reply_is_mirrored_from_its_start(redis_client):
    reply_messages.listen()
    assert reply_messages.subscribed.wait(DEADLINE_S), "the listener never subscribed"
    turn_id = 3 * 10**9 + secrets.randbelow(10**8)
    seen = asyncio.run(_run_followed(turn_id))
    redis_client.delete(reply_mirror.stream_key(turn_id, 1))
    assert [kind for kind, _ in seen][0] == "turn" and seen[-1][0] == "end"
    assert "".join(str(value) for kind, value in seen if kind == "text") == "said before and after"
