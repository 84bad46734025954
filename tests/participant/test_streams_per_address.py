"""At most ``ATTUNE_MAX_STREAMS_PER_ADDRESS`` chat streams are open at once from one client
address: one more is refused with 429 ``too_many_streams`` and a Retry-After, before its message
is stored; when a stream ends, its place is free again."""

import dataclasses

import pytest

from annotations.models import Turn
from tests.participant.held_streams import StreamInThread, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_stream_more_than_the_address_may_have_is_refused(
    live_participant, upstream_study, openai_server, settings
):
    settings.ATTUNE = dataclasses.replace(settings.ATTUNE, max_streams_per_address=2)
    clients = [live_participant(upstream_study) for _ in range(3)]
    for client in clients:
        client.onboard()  # all three from 127.0.0.1: one address
    openai_server.behaviour.hold()
    held = [StreamInThread(client, "Hello?") for client in clients[:2]]
    wait_until(lambda: openai_server.behaviour.in_flight == 2, "two model calls")

    refused = clients[2].send("Me too?")

    assert refused.status == 429
    assert refused.body["error"]["code"] == "too_many_streams"
    assert int(refused.body["error"]["retry_after"]) > 0
    assert Turn.objects.filter(user_message="Me too?").count() == 0  # nothing stored
    openai_server.behaviour.release()
    assert [stream.join().names[-1] for stream in held] == ["done", "done"]
    assert clients[2].send("Me too?").names[-1] == "done"
