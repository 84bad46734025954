"""A NUL character anywhere in a participant request (draft data and keys, profile responses,
annotation timings), a body nested too deeply and an oversized free JSON field are refused with
a 400 naming the field, the same on SQLite and PostgreSQL (PostgreSQL cannot store a NUL: it
was a 500 there), and nothing is written."""

import pytest

from annotations.models import Participant, ParticipantDraft

pytestmark = pytest.mark.django_db

PROFILE = {"age": 34, "traits": ["introvert"], "goals": ["be heard"]}


@pytest.fixture
def client(participant_client):
    client = participant_client()
    client.start()
    assert client.post("consent", {"consent_version": "2", "agree": True}).status == 200
    return client


@pytest.mark.parametrize(
    ("path", "method", "body", "field"),
    [
        ("profile", "post", {**PROFILE, "responses": {"q1": "a\x00b"}}, "responses.q1"),
        ("profile", "post", {**PROFILE, "responses": {"q\x00": "x"}}, "responses"),
        (
            "profile",
            "post",
            {**PROFILE, "responses": {"q": [{"deep": "\x00"}]}},
            "responses.q[0].deep",
        ),
        ("drafts/message", "put", {"data": {"text": "\x00"}}, "data.text"),
        ("drafts/message", "put", {"data": {"\x00": 1}}, "data"),
        ("drafts/message", "put", {"data": "\x00"}, "data"),
    ],
)
def test_a_nul_is_refused_naming_the_field(client, path, method, body, field):
    reply = getattr(client, method)(path, body)
    assert reply.status == 400, reply.body
    assert reply.error["code"] == "invalid" and reply.error["field"] == field
    participant = Participant.objects.get(prolific_pid=client.pid)
    assert participant.profile_submitted_at is None
    assert not ParticipantDraft.objects.filter(participant=participant).exists()


def test_annotation_timings_keys_are_checked_too(client):
    reply = client.post(
        "turns/1/annotation", {"timings": {"t\x00": 1.0}, "mood_tags": [], "behaviour": {}}
    )
    assert reply.status == 400 and reply.error["field"] == "timings"


def test_profile_responses_have_a_size_limit(client):
    reply = client.post("profile", {**PROFILE, "responses": {"q": "x" * 1_000_000}})
    assert reply.status == 400 and reply.error["field"] == "responses"
    assert Participant.objects.get(prolific_pid=client.pid).profile_submitted_at is None


def test_timings_have_a_size_limit(client):
    timings = {f"step{i}": 1.0 for i in range(1000)}
    reply = client.post(
        "turns/1/annotation", {"timings": timings, "mood_tags": [], "behaviour": {}}
    )
    assert reply.status == 400 and reply.error["field"] == "timings"


def test_a_deeply_nested_body_is_a_400(client):
    body = {"data": {}}
    node = body["data"]
    for _ in range(30):
        node["x"] = {}
        node = node["x"]
    reply = client.put("drafts/message", body)
    assert reply.status == 400 and reply.error["code"] == "invalid"


def test_a_body_past_the_parsers_limit_is_a_400(client):
    raw = '{"data": ' + "[" * 200_000 + "]" * 200_000 + "}"
    response = client.transport.client.generic(
        "PUT",
        "/api/study/drafts/message",
        raw,
        content_type="application/json",
        HTTP_AUTHORIZATION=client.headers["Authorization"],
    )
    assert response.status_code == 400 and response.json()["error"]["code"] == "parse_error"
