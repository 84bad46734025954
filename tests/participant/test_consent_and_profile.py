"""Consent (the version is recorded; refusing screens out) and the profile (age, traits with
an optional self-reported diagnosis, goals)."""

import pytest

from annotations.models import Conversation, ConversationState, Participant

pytestmark = pytest.mark.django_db


def test_consent_records_the_version_and_opens_a_conversation(participant_client):
    client = participant_client()
    client.start()
    reply = client.post("consent", {"consent_version": "2", "agree": True})
    assert reply.status == 200 and reply.body["step"] == "profile"
    participant = Participant.objects.get(prolific_pid=client.pid)
    assert participant.consent_version == "2" and participant.consented_at is not None
    conversation = Conversation.objects.get(participant=participant)
    assert conversation.state == ConversationState.CONSENTED
    assert conversation.model_endpoint is not None  # assigned now, never shown


def test_consent_to_an_outdated_text_is_refused(participant_client):
    client = participant_client()
    client.start()
    reply = client.post("consent", {"consent_version": "1", "agree": True})
    # A conflict with the study's current text (409), not a malformed request.
    assert reply.status == 409 and reply.error["code"] == "consent_changed"
    assert reply.error["field"] == "consent_version"
    assert Participant.objects.get(prolific_pid=client.pid).consented_at is None


def test_declining_consent_screens_out_with_the_code(participant_client):
    client = participant_client()
    client.start()
    session = client.post("consent", {"consent_version": "2", "agree": False}).body
    assert session["step"] == "screened_out"
    assert session["screenout"] == {
        "code": "SCR33N",
        "redirect_url": "https://app.prolific.com/submissions/complete?cc=SCR33N",
    }
    assert client.post("profile", {"age": 30}).error["code"] == "screened_out"
    assert not Conversation.objects.filter(participant__prolific_pid=client.pid).exists()


def test_the_profile_is_stored_with_the_diagnosis_as_a_trait(participant_client):
    client = participant_client()
    client.start()
    client.post("consent", {"consent_version": "2", "agree": True})
    reply = client.post(
        "profile",
        {
            "age": 41,
            "traits": ["shy"],
            "goals": ["feel calmer"],
            "diagnosis": "depression",
            "responses": {"hobby": "chess"},
        },
    )
    assert reply.status == 200 and reply.body["step"] == "pre_panas"
    participant = Participant.objects.get(prolific_pid=client.pid)
    assert participant.age == 41
    assert participant.traits == ["shy", "diagnosis:depression"]
    assert participant.goals == ["feel calmer"] and participant.responses == {
        "hobby": "chess",
        "age_band": "35_44",
    }


def test_a_participant_under_18_is_screened_out(participant_client):
    client = participant_client()
    client.start()
    client.post("consent", {"consent_version": "2", "agree": True})
    assert client.post("profile", {"age": 16}).body["step"] == "screened_out"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"age": "old"}, "age"),
        ({"age": 30, "traits": "shy"}, "traits"),
        ({"age": 30, "goals": [""]}, "goals[0]"),
        ({"age": 140}, "age"),
    ],
)
def test_a_bad_profile_value_changes_nothing(participant_client, body, field):
    client = participant_client()
    client.start()
    client.post("consent", {"consent_version": "2", "agree": True})
    reply = client.post("profile", body)
    assert reply.status == 400 and reply.error["field"] == field
    assert Participant.objects.get(prolific_pid=client.pid).profile_submitted_at is None


def test_a_step_out_of_order_is_a_conflict(participant_client):
    client = participant_client()
    client.start()
    reply = client.post("topic", {"category": "work"})
    assert reply.status == 409 and reply.error["code"] == "wrong_step"
