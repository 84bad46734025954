"""A withdrawal taken by one web process stops the participant's reply that another web
process is generating (through Redis, ``reply_messages.py``): the model call is closed at once,
not left to run to its end (a long reply, still streaming: it would run for 20 s)."""

from __future__ import annotations

import pytest
import redis

from annotations.models import Turn, TurnStatus
from annotations.participant_api import reply_messages
from annotations.participant_api.reply_mirror import redis_url
from annotations.services.withdrawal import WITHDREW_MID_REPLY
from tests import worker_process
from tests.e2e.servers import running_uvicorn
from tests.llm.conftest import KEY_ENV
from tests.participant.held_streams import wait_until
from tests.participant.test_reply_outlives_its_connection import _leave_after

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def other_web_process(transactional_db, api_key):
    """A uvicorn process of its own (the real start-up, listener included) on this database."""
    if not redis_url():
        pytest.skip("several web processes tell each other of withdrawals through Redis")
    env = {"DATABASE_URL": worker_process.test_database_url(), KEY_ENV: api_key}
    with running_uvicorn(env) as url:
        yield url


def _listeners() -> int:
    with redis.Redis.from_url(redis_url()) as client:
        return dict(client.pubsub_numsub(reply_messages.stop_channel()))[
            reply_messages.stop_channel().encode()
        ]


def test_the_reply_on_the_other_process_stops(
    upstream_study, live_participant, openai_server, other_web_process, sent_tasks
):
    client = live_participant(upstream_study)  # talks to this process's server
    client.onboard()
    openai_server.behaviour.token_delay_s = 0.1
    openai_server.behaviour.reply = lambda body: "and so on " * 70  # 210 tokens: about 20 s
    wait_until(lambda: _listeners() >= 1, "the other process to listen for withdrawals")
    # The message goes to the other process, which starts the reply there.
    _leave_after(other_web_process, client, "my boss shouts at me", "delta", "key-other-stop")
    assert openai_server.behaviour.in_flight == 1  # the reply is streaming, over there
    assert client.post("withdraw", {"confirm": True}).status == 200  # taken by this process
    wait_until(
        lambda: openai_server.behaviour.in_flight == 0, "the model call to be closed", timeout_s=5
    )
    turn = Turn.objects.get()
    assert (turn.status, turn.model_reply, turn.error) == (
        TurnStatus.FAILED,
        "",
        WITHDREW_MID_REPLY,
    )
