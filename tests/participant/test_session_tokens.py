"""The participant session token: required, stored only as a hash, and it opens one
participant's data only (who reaches which endpoint: test_permission_matrix.py)."""

import hashlib

import pytest
from rest_framework.test import APIClient

from annotations.models import ParticipantSession
from tests.participant.client import DjangoTransport, ParticipantClient

pytestmark = pytest.mark.django_db


def test_no_token_or_a_wrong_one_is_unauthenticated(participant_client):
    client = participant_client()
    assert client.get("session").status == 401
    client.token = "not-a-real-token"
    reply = client.get("session")
    assert reply.status == 401 and reply.error["code"] == "unauthenticated"
    assert reply.headers["WWW-Authenticate"].startswith("Participant")


def test_only_a_hash_of_the_token_is_stored(participant_client):
    client = participant_client()
    client.start()
    session = ParticipantSession.objects.get(participant__prolific_pid=client.pid)
    assert session.token_hash == hashlib.sha256(client.token.encode()).hexdigest()
    assert not ParticipantSession.objects.filter(token_hash=client.token).exists()


def test_a_revoked_session_is_refused(participant_client):
    client = participant_client()
    client.start()
    ParticipantSession.objects.update(revoked_at="2026-01-01T00:00:00Z")
    assert client.get("session").status == 401


def test_no_cookie_and_no_csrf_token_are_involved(chat_study):
    # A browser client that enforces CSRF like a real one: the header is all it takes.
    client = ParticipantClient(
        DjangoTransport(APIClient(enforce_csrf_checks=True)), chat_study.slug
    )
    reply = client.start()
    assert reply.status == 201 and "Set-Cookie" not in reply.headers
    consent = client.post("consent", {"consent_version": "2", "agree": True})
    assert consent.status == 200 and consent.body["step"] == "profile"
