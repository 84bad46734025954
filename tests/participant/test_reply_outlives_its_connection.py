"""A reply belongs to the server, not to the connection: a participant whose connection drops
mid-reply (a phone switching apps, a reload) comes back to the same reply, which went on and
was stored once, from one model call; a re-attach after the end replays what is stored; a
withdrawal stops a reply nobody is reading any more."""

import httpx
import pytest

from annotations.models import AuditEntry, Participant, Turn, TurnStatus
from annotations.participant_api.reply_mirror import redis_url
from annotations.services.withdrawal import WITHDREW_MID_REPLY
from tests.participant.client import parse_sse
from tests.participant.held_streams import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def _leave_after(base_url, client, text, event_name, key):
    """Send ``text`` and drop the connection once ``event_name`` came; the events read."""
    body = {"text": text, "idempotency_key": key}
    lines: list[str] = []
    with (
        httpx.Client(base_url=base_url, timeout=10) as http,
        http.stream("POST", "/api/study/messages", json=body, headers=client.headers) as response,
    ):
        assert response.status_code == 200
        for line in response.iter_lines():
            lines.append(line)
            if line == "" and any(x == f"event: {event_name}" for x in lines):
                break  # leave now
    return lines


def _follow(base_url, client, number, last_event_id=None):
    headers = dict(client.headers)
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    with (
        httpx.Client(base_url=base_url, timeout=20) as http,
        http.stream("GET", f"/api/study/turns/{number}/stream", headers=headers) as response,
    ):
        assert response.status_code == 200, response.read()
        lines = list(response.iter_lines())
    return lines


def _text(lines):
    return "".join(data["text"] for name, data in parse_sse(iter(lines)) if name == "delta")


def _chat_calls(openai_server, text):
    return [
        body for body in openai_server.behaviour.requests if body["messages"][-1]["content"] == text
    ]


def test_a_dropped_connection_comes_back_to_the_whole_reply(
    upstream_study, live_participant, openai_server, asgi_server, sent_tasks
):
    openai_server.behaviour.token_delay_s = 0.1
    client = live_participant(upstream_study)
    client.onboard()
    first = _leave_after(asgi_server, client, "Are you there?", "delta", "key-drop-1")
    ids = [line[3:].strip() for line in first if line.startswith("id:")]
    assert ids[0].endswith(":0")  # the turn event

    # Re-attached from the start (a reloaded page): the whole reply, then its end.
    again = parse_sse(iter(_follow(asgi_server, client, 1)))
    names = [name for name, _ in again]
    assert names[0] == "turn" and names[-1] == "done"
    turn = Turn.objects.get()
    assert turn.status == TurnStatus.DONE
    assert "".join(d["text"] for n, d in again if n == "delta") == turn.model_reply
    assert again[-1][1]["turn"]["reply"] == turn.model_reply
    assert len(_chat_calls(openai_server, "Are you there?")) == 1  # no second model call
    assert AuditEntry.objects.filter(action="annotations.turn.reply").count() == 1
    assert len(sent_tasks["annotations.improve_reply"]) == 1  # stored once


def test_last_event_id_resumes_after_what_the_client_has(
    upstream_study, live_participant, openai_server, asgi_server, sent_tasks
):
    openai_server.behaviour.token_delay_s = 0.1
    client = live_participant(upstream_study)
    client.onboard()
    first = _leave_after(asgi_server, client, "Still there?", "delta", "key-drop-2")
    last_id = [line[3:].strip() for line in first if line.startswith("id:")][-1]
    rest = _follow(asgi_server, client, 1, last_event_id=last_id)
    assert not any(line == "event: turn" for line in rest)  # only what came after
    assert _text(first) + _text(rest) == Turn.objects.get().model_reply
    assert len(_chat_calls(openai_server, "Still there?")) == 1


def test_a_re_attach_after_the_end_replays_the_stored_reply(
    upstream_study, live_participant, openai_server, asgi_server, sent_tasks
):
    client = live_participant(upstream_study)
    client.onboard()
    sent = client.send("Hello again")
    assert sent.names[-1] == "done"
    replay = parse_sse(iter(_follow(asgi_server, client, 1)))
    assert [name for name, _ in replay] == ["turn", "delta", "done"]
    assert replay[1][1]["text"] == sent.text == Turn.objects.get().model_reply
    assert len(_chat_calls(openai_server, "Hello again")) == 1


def test_a_withdrawal_stops_a_reply_nobody_reads(
    upstream_study, live_participant, openai_server, asgi_server, sent_tasks
):
    client = live_participant(upstream_study)
    client.onboard()
    openai_server.behaviour.hold()  # the model says nothing until released: it never is
    _leave_after(asgi_server, client, "my boss shouts at me", "turn", "key-drop-3")
    wait_until(lambda: openai_server.behaviour.in_flight == 1, "the model call")
    assert client.post("withdraw", {"confirm": True}).status == 200
    wait_until(lambda: openai_server.behaviour.in_flight == 0, "the model call to be closed")
    turn = Turn.objects.get()
    assert (turn.status, turn.model_reply, turn.error) == (
        TurnStatus.FAILED,
        "",
        WITHDREW_MID_REPLY,
    )
    assert not sent_tasks["annotations.improve_reply"]


def test_only_the_participant_follows_their_turn(
    upstream_study, live_participant, asgi_server, sent_tasks
):
    owner = live_participant(upstream_study)
    owner.onboard()
    assert owner.send("Mine alone").names[-1] == "done"
    other = live_participant(upstream_study)
    other.onboard()
    with httpx.Client(base_url=asgi_server, timeout=10) as http:
        assert http.get("/api/study/turns/1/stream", headers=other.headers).status_code == 404
        assert http.get("/api/study/turns/1/stream").status_code == 401
    assert Participant.objects.count() == 2


def test_tokens_that_come_apart_are_sent_apart(
    upstream_study, live_participant, openai_server, sent_tasks
):
    openai_server.behaviour.token_delay_s = 0.05
    client = live_participant(upstream_study)
    client.onboard()
    result = client.send("one two three four")
    assert result.names.count("delta") > 3  # token by token, not one block
    assert result.text == Turn.objects.get().model_reply


def test_a_re_attach_on_another_web_process_reads_the_reply_from_redis(
    upstream_study, live_participant, openai_server, asgi_server, second_asgi_server, sent_tasks
):
    """Two uvicorns, two event loops: the reply runs on the first, the participant comes back
    through the second, which follows it through the turn's Redis Stream."""
    if not redis_url():
        pytest.skip("several web processes share a reply's progress through Redis")
    openai_server.behaviour.token_delay_s = 0.1
    client = live_participant(upstream_study)
    client.onboard()
    first = _leave_after(asgi_server, client, "Over there?", "delta", "key-other-1")
    last_id = [line[3:].strip() for line in first if line.startswith("id:")][-1]
    rest = _follow(second_asgi_server, client, 1, last_event_id=last_id)
    assert "event: done" in rest and "event: turn" not in rest
    assert _text(first) + _text(rest) == Turn.objects.get().model_reply
    assert len(_chat_calls(openai_server, "Over there?")) == 1
