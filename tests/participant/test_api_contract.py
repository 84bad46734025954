"""The participant API's contract at its edges: paths it does not route (a turn number that is
not an integer) and oversized bodies answer in the JSON error shape, string fields refuse
numbers, and the schema documents the retry endpoint's 404."""

import pytest
import yaml

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(participant_client):
    client = participant_client()
    client.onboard()
    return client


def _error(reply, status: int, code: str) -> dict:
    assert reply.status == status, (reply.status, reply.body)
    assert reply.headers["Content-Type"].startswith("application/json")
    assert reply.error["code"] == code and reply.error["message"]
    return reply.error


@pytest.mark.parametrize("path", ["turns/abc", "turns/1.5/annotation", "turns/-1/retry", "nowhere"])
def test_unrouted_paths_answer_json(client, path):
    _error(client.get(path), 404, "not_found")


@pytest.mark.django_db(transaction=True)  # the chat reads the session on its own threads
def test_an_oversized_body_answers_json(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2_000
    big = "x" * 5_000
    _error(client.put("drafts/message", {"data": big}), 413, "too_large")
    reply = client.transport.client.post(
        "/api/study/messages",
        {"text": big, "idempotency_key": "key-too-large-1"},
        format="json",
        HTTP_AUTHORIZATION=client.headers["Authorization"],
    )
    assert reply.status_code == 413 and reply.json()["error"]["code"] == "too_large"


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("topic", {"category": 5}, "category"),
        ("consent", {"consent_version": 2, "agree": True}, "consent_version"),
        ("profile", {"age": 30, "traits": [7]}, "traits[0]"),
    ],
)
def test_string_fields_refuse_numbers(client, path, body, field):
    reply = client.post(path, body)
    error = _error(reply, 400, "invalid")
    assert error["field"] == field


@pytest.mark.django_db(transaction=True)
def test_a_message_text_must_be_a_string(client):
    reply = client.transport.client.post(
        "/api/study/messages",
        {"text": 12345, "idempotency_key": "key-number-text-1"},
        format="json",
        HTTP_AUTHORIZATION=client.headers["Authorization"],
    )
    assert reply.status_code == 400 and reply.json()["error"]["field"] == "text"


def test_the_schema_documents_the_retry_404(client):
    schema = yaml.safe_load(client.transport.client.get("/api/schema/").content)
    assert "404" in schema["paths"]["/api/study/turns/{number}/retry"]["post"]["responses"]
