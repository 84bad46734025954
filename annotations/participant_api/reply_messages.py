"""What one web process tells the others about a reply, through Redis's publish/subscribe.

With several web processes (``REDIS_URL`` set) a participant's reply may run on another process
than the one their request reaches. Two messages cross between them, each on a channel of this
deployment, and every web process listens on both from a thread started with the process
(``listen``):
- *stop* (a withdrawal): every process stops its own runs of that participant
  (``reply_runs.stop_participant``). Without the message (Redis away for a moment) the run still
  stores nothing for a withdrawn participant (``chat.record_reply``); it only goes on costing the
  model's tokens until its reply ends, so a lost message is logged, not retried.
- *follow* (a re-attach landed on another process): the process running that reply starts
  mirroring it to its Redis Stream (``reply_runs.mirror_requested``; ``reply_mirror.py``), what
  it has said so far and then the rest. Replies nobody follows from elsewhere cost no Redis
  write. The follower asks again whenever a read finds nothing, so a lost message delays it by
  one read.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from . import reply_runs
from .reply_mirror import deployment, follow_channel, redis_url

logger = logging.getLogger(__name__)

STOP_PREFIX = "attune:reply:stop:"
RECONNECT_S = 2.0  # between attempts when Redis is away; the thread never ends by itself

_listener: threading.Thread | None = None
_listener_lock = threading.Lock()
subscribed = threading.Event()  # set while the listener is subscribed (tests wait on it)


def stop_channel() -> str:
    return f"{STOP_PREFIX}{deployment()}"


def stop_everywhere(participant_id: int) -> None:
    """Stop this participant's replies here at once, and in every other web process."""
    reply_runs.stop_participant(participant_id)
    url = redis_url()
    if not url:
        return  # one web process: nothing runs elsewhere
    import redis

    try:
        with redis.Redis.from_url(url, socket_timeout=2) as client:
            client.publish(stop_channel(), str(participant_id))
    except redis.RedisError:
        logger.warning("could not tell the other web processes of withdrawal %s", participant_id)


def listen() -> None:
    """Start this process's listener (once; only when replies can run in other processes)."""
    global _listener
    url = redis_url()
    if not url:
        return
    with _listener_lock:
        if _listener is None or not _listener.is_alive():
            handlers = {stop_channel(): _stop, follow_channel(): _follow}
            _listener = threading.Thread(
                target=_listen, args=(url, handlers), name="attune-reply-messages", daemon=True
            )
            _listener.start()


def _listen(url: str, handlers: dict[str, Callable[[bytes], None]]) -> None:
    import redis

    by_channel = {name.encode(): handler for name, handler in handlers.items()}
    while True:
        try:
            with redis.Redis.from_url(url) as client, client.pubsub() as pubsub:
                pubsub.subscribe(*handlers)
                pending = len(handlers)
                for message in pubsub.listen():
                    if message["type"] == "subscribe":
                        pending -= 1
                        if pending == 0:
                            subscribed.set()
                    elif message["type"] == "message":
                        by_channel[message["channel"]](message["data"])
        except redis.RedisError:
            logger.warning("the reply channels are unreachable; listening again shortly")
        subscribed.clear()
        time.sleep(RECONNECT_S)


def _stop(data: bytes) -> None:
    try:
        participant_id = int(data)
    except ValueError:
        logger.warning("ignored a malformed withdrawal message: %r", data[:40])
        return
    reply_runs.stop_participant(participant_id)


def _follow(data: bytes) -> None:
    turn, _, claim = data.decode(errors="replace").partition(":")
    if not (turn.isdigit() and claim.isdigit()):
        logger.warning("ignored a malformed follow message: %r", data[:40])
        return
    reply_runs.mirror_requested(int(turn), int(claim))
