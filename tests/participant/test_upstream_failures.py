"""When the model fails (429, 500, a timeout, a stream cut mid-way) the message is kept, the
turn is marked failed, the participant gets an error event they can act on, and a retry
answers the same turn. Run against the local OpenAI-compatible test server (real HTTP)."""

import pytest

from annotations.models import Turn, TurnStatus

pytestmark = pytest.mark.django_db(transaction=True)

FAULTS = {
    "rate_limited": lambda b: b.rate_limit(retry_after=0),
    "upstream_error": lambda b: b.server_error(),
    "timeout": lambda b: b.stall(seconds=5),  # the endpoint gives up after 2 s
    "stream_interrupted": lambda b: b.cut_stream(after_tokens=3),
}


@pytest.fixture
def chatting(upstream_study, live_participant):
    client = live_participant(upstream_study)
    client.onboard()
    return client


@pytest.mark.parametrize("reason", list(FAULTS))
def test_a_failed_reply_keeps_the_message_and_can_be_retried(chatting, openai_server, reason):
    FAULTS[reason](openai_server.behaviour)
    failed = chatting.send("Please help me think this through.")
    assert failed.status == 200  # the stream had started: the failure is an event
    assert failed.names[0] == "turn" and failed.names[-1] == "error"
    error = failed.data("error")
    assert error["turn"] == {"number": 1, "status": "failed"}
    assert error["error"]["reason"] == reason and error["error"]["retryable"] is True
    assert "test-model" not in str(error) and "upstream" not in error["error"]["message"]
    if reason == "stream_interrupted":
        assert failed.text  # some tokens had arrived before the cut

    turn = Turn.objects.get()
    assert turn.status == TurnStatus.FAILED
    assert turn.user_message == "Please help me think this through."  # never lost
    assert turn.error and turn.model_reply == ""
    session = chatting.session()
    assert session["chat"]["turns"][0]["error"]["retryable"] is True
    assert session["chat"]["can_send"] is False  # the failed message comes first

    retried = chatting.retry(1)
    assert retried.names[-1] == "done"
    assert retried.text == "Test server reply to: Please help me think this through."
    turn.refresh_from_db()
    assert turn.status == TurnStatus.DONE and turn.number == 1 and turn.error == ""
    assert Turn.objects.count() == 1


def test_a_new_message_after_a_failure_is_out_of_turn(chatting, openai_server):
    openai_server.behaviour.server_error()
    chatting.send("first")
    refused = chatting.send("second")
    assert refused.status == 409 and refused.body["error"]["code"] == "out_of_turn"
    assert refused.body["error"]["turn"] == 1


def test_the_gateway_retries_a_429_that_says_when(upstream_study, live_participant, openai_server):
    upstream_study.model_pool.update(max_retries=1)
    client = live_participant(upstream_study)
    client.onboard()
    openai_server.behaviour.rate_limit(retry_after=0.2)
    result = client.send("hello")
    assert result.names[-1] == "done"
    assert Turn.objects.get().attempts == 2


def test_retrying_an_answered_turn_replays_it(chatting):
    first = chatting.send("hello there")
    again = chatting.retry(1)
    assert again.names == ["turn", "delta", "done"]
    assert again.text == first.text
    assert Turn.objects.count() == 1
