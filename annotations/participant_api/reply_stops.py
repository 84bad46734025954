"""A withdrawal stops the participant's reply in whichever web process generates it.

``reply_runs.stop_participant`` reaches the runs of the process that took the withdrawal.
With several web processes (``REDIS_URL`` set) the reply may run on another one: the
withdrawal is also published on a Redis channel, and every web process listens on it from a
thread started with the process (``listen_for_stops``) and stops its own runs of that
participant. Without the message (Redis away for a moment) the run still stores nothing for a
withdrawn participant (``chat.record_reply``); it only goes on costing the model's tokens until
its reply ends, so a lost message is logged, not retried.
"""

from __future__ import annotations

import logging
import threading
import time

from . import reply_runs
from .reply_mirror import redis_url

logger = logging.getLogger(__name__)

CHANNEL_PREFIX = "attune:reply:stop:"
RECONNECT_S = 2.0  # between attempts when Redis is away; the thread never ends by itself

_listener: threading.Thread | None = None
_listener_lock = threading.Lock()
subscribed = threading.Event()  # set while the listener is subscribed (tests wait on it)


def channel() -> str:
    """The channel of this deployment: Redis's channels are shared by all its numbered
    databases, so two platforms on one Redis (or two test runs) are told apart by database."""
    from django.db import connection

    return f"{CHANNEL_PREFIX}{connection.settings_dict['NAME']}"


def stop_everywhere(participant_id: int) -> None:
    """Stop this participant's replies here at once, and in every other web process."""
    reply_runs.stop_participant(participant_id)
    url = redis_url()
    if not url:
        return  # one web process: nothing runs elsewhere
    import redis

    try:
        with redis.Redis.from_url(url, socket_timeout=2) as client:
            client.publish(channel(), str(participant_id))
    except redis.RedisError:
        logger.warning("could not tell the other web processes of withdrawal %s", participant_id)


def listen_for_stops() -> None:
    """Start this process's listener (once; only when replies can run in other processes)."""
    global _listener
    url = redis_url()
    if not url:
        return
    with _listener_lock:
        if _listener is None or not _listener.is_alive():
            _listener = threading.Thread(
                target=_listen, args=(url, channel()), name="attune-reply-stops", daemon=True
            )
            _listener.start()


def _listen(url: str, name: str) -> None:
    import redis

    while True:
        try:
            with redis.Redis.from_url(url) as client, client.pubsub() as pubsub:
                pubsub.subscribe(name)
                for message in pubsub.listen():
                    if message["type"] == "subscribe":
                        subscribed.set()
                    elif message["type"] == "message":
                        _stop(message["data"])
        except redis.RedisError:
            logger.warning("the withdrawal channel is unreachable; listening again shortly")
        subscribed.clear()
        time.sleep(RECONNECT_S)


def _stop(data: bytes) -> None:
    try:
        participant_id = int(data)
    except ValueError:
        logger.warning("ignored a malformed withdrawal message: %r", data[:40])
        return
    reply_runs.stop_participant(participant_id)
