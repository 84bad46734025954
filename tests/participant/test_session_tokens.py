"""The participant session token: required, stored only as a hash, and it opens one
participant's data only."""

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


def test_a_token_reaches_only_its_own_participant(participant_client, answered_turn):
    alice, bob = participant_client(), participant_client()
    alice.onboard()
    bob.onboard()
    answered_turn(alice, "Alice's secret worry")
    assert alice.get("turns/1").body["user_message"] == "Alice's secret worry"
    # Bob asks for turn 1 with his own token: he gets his own (absent) turn, never Alice's.
    assert bob.get("turns/1").status == 404
    assert bob.get("turns/1/annotation").status == 404
    refused = bob.post("turns/1/annotation", {"mood_tags": [], "behaviour": {}})
    assert refused.status in (404, 409)
    assert "Alice" not in str(bob.session())
    assert alice.get("turns/1/annotation").body["submitted"] is False


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
