"""Sending a message: it is stored before the model is called, the reply streams back as
Server-Sent Events from an async view under uvicorn, and the finished reply is stored with its
metadata."""

import threading
import time

import pytest

from annotations.models import AuditEntry, Turn, TurnStatus

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_reply_streams_as_events_and_is_stored(chat_study, live_participant):
    client = live_participant(chat_study)
    client.onboard()
    result = client.send("I am so nervous about tomorrow's exam.")
    assert result.status == 200
    assert result.names[0] == "turn" and result.names[-1] == "done"
    # The demo's tokens come at once here: a follower sends what has come since it last sent
    # (tokens that come apart are sent apart: test_reply_outlives_its_connection.py).
    assert result.names.count("delta") >= 1
    first = result.data("turn")
    assert first["turn"] == {
        "number": 1,
        "status": "streaming",
        "user_message": "I am so nervous about tomorrow's exam.",
    }
    assert first["support"] is None
    done = result.data("done")
    assert done["turn"]["reply"] == result.text and done["turn"]["status"] == "done"
    assert done["annotation"]["turn"] == 1 and done["annotation"]["submitted"] is False

    turn = Turn.objects.get()
    assert turn.status == TurnStatus.DONE and turn.model_reply == result.text
    assert turn.finish_reason == "stop" and turn.attempts == 1
    assert turn.latency_ms is not None and turn.time_to_first_token_ms is not None
    assert turn.prompt_tokens > 0 and turn.completion_tokens > 0
    assert turn.conversation.model_version == "attune-demo/listener"
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"annotations.turn.message", "annotations.turn.reply"} <= actions


def test_the_message_is_in_the_database_before_the_reply_ends(
    live_participant, upstream_study, openai_server
):
    openai_server.behaviour.token_delay_s = 0.2  # the reply streams for a while
    client = live_participant(upstream_study)
    client.onboard()
    seen: dict[str, object] = {}
    original_parse = client.transport.stream

    def stream_and_peek(path, data, headers):
        # Look at the database from another thread once the model is answering (its request
        # is open at the test server), that is while the reply is still streaming: a state
        # to wait for, not a guess of how long the platform takes to get there.
        def peek():
            deadline = time.monotonic() + 30
            while openai_server.behaviour.in_flight == 0 and time.monotonic() < deadline:
                time.sleep(0.01)
            turn = Turn.objects.filter(user_message="Is it stored yet?").first()
            seen["status"] = turn.status if turn else None

        peeker = threading.Thread(target=peek)
        peeker.start()
        try:
            return original_parse(path, data, headers)
        finally:
            peeker.join()

    client.transport.stream = stream_and_peek
    result = client.send("Is it stored yet?")
    assert result.names[-1] == "done"
    assert seen["status"] == TurnStatus.STREAMING


def test_the_model_sees_the_system_prompt_and_the_earlier_turns(
    upstream_study, live_participant, openai_server
):
    endpoint = upstream_study.model_pool.get()
    endpoint.system_prompt = "Be kind. Never name your vendor."
    endpoint.save()
    upstream_study.improver_endpoint = None  # no comparison step to wait for
    upstream_study.save()
    client = live_participant(upstream_study)
    client.onboard()
    client.send("First message")
    assert client.annotate(1).status == 200
    openai_server.behaviour.requests.clear()
    assert client.send("Second message").names[-1] == "done"
    messages = openai_server.behaviour.requests[-1]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[0]["content"] == "Be kind. Never name your vendor."
    assert messages[1]["content"] == "First message" and messages[3]["content"] == "Second message"
