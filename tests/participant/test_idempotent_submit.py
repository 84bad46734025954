"""A repeated submit with the same idempotency key returns the same turn (a double tap, or a
resend after a dropped connection); it never creates a second turn or a second model call."""

import threading

import pytest

from annotations.models import Turn

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def chatting(upstream_study, live_participant):
    client = live_participant(upstream_study)
    client.onboard()
    return client


def test_the_same_key_after_the_reply_replays_the_same_turn(chatting, openai_server):
    first = chatting.send("Hello, anyone there?", key="key-0000000001")
    again = chatting.send("Hello, anyone there?", key="key-0000000001")
    assert again.names == ["turn", "delta", "done"]
    assert again.data("done")["turn"] == first.data("done")["turn"]
    assert Turn.objects.count() == 1 and openai_server.request_count == 1


def test_the_same_key_for_another_text_is_refused(chatting):
    chatting.send("one thing", key="key-0000000002")
    refused = chatting.send("another thing", key="key-0000000002")
    assert refused.status == 409 and refused.body["error"]["code"] == "idempotency_key_reused"


def test_a_double_submit_while_streaming_makes_one_turn(chatting, openai_server):
    openai_server.behaviour.latency_s = 0.5  # the first reply is still on its way
    results = {}

    def send(name):
        results[name] = chatting.send("Double tap!", key="key-0000000003")

    threads = [threading.Thread(target=send, args=(n,)) for n in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    outcomes = sorted(
        r.names[-1] if r.events else r.body["error"]["code"] for r in results.values()
    )
    assert outcomes == ["done", "turn_in_progress"]
    assert Turn.objects.count() == 1 and openai_server.request_count == 1


def test_a_missing_or_malformed_key_is_refused(chatting):
    reply = chatting.transport.stream("/api/study/messages", {"text": "hi"}, chatting.headers)
    assert reply.status == 400 and reply.body["error"]["field"] == "idempotency_key"
    reply = chatting.transport.stream(
        "/api/study/messages", {"text": "hi", "idempotency_key": "a b"}, chatting.headers
    )
    assert reply.status == 400 and reply.body["error"]["field"] == "idempotency_key"
    assert not Turn.objects.exists()
