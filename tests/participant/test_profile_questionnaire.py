"""The profile questionnaire comes from the instrument: the app gets its questions with option
ids, answers are stored as option ids (an "other" option with its text), diagnoses become
traits, and an age under the minimum ends the study only once the participant confirms it."""

import pytest

from annotations.models import Participant

pytestmark = pytest.mark.django_db

ANSWERS = {
    "gender": "woman",
    "country": "other",
    "first_language": "english",
    "chatbot_personal_use": "sometimes",
    "diagnoses": ["anxiety", "other"],
}
OTHER = {"country": "Norway", "diagnoses": "OCD"}


def _consented(participant_client):
    client = participant_client()
    client.start()
    assert client.post("consent", {"consent_version": "2", "agree": True}).status == 200
    return client


def test_the_app_gets_the_questionnaire_with_option_ids(participant_client):
    client = _consented(participant_client)
    questions = {q["id"]: q for q in client.get("instrument").body["profile"]}
    assert list(questions) == [
        "age",
        "gender",
        "country",
        "first_language",
        "chatbot_personal_use",
        "diagnoses",
    ]
    diagnoses = questions["diagnoses"]
    assert diagnoses["kind"] == "multi"
    ids = [o["id"] for o in diagnoses["options"]]
    assert ids == [
        "none",
        "depression",
        "anxiety",
        "adhd",
        "autism",
        "bipolar",
        "ptsd",
        "other",
        "prefer_not_to_say",
    ]
    assert next(o for o in diagnoses["options"] if o["id"] == "other")["other"] is True
    assert "role" not in diagnoses["options"][0]  # the statistics' roles stay server-side


def test_answers_are_stored_as_option_ids_and_diagnoses_as_traits(participant_client):
    client = _consented(participant_client)
    reply = client.post(
        "profile",
        {"age": 29, "answers": ANSWERS, "other_text": {"country": "Norway", "diagnoses": "OCD"}},
    )
    assert reply.status == 200, reply.body
    participant = Participant.objects.get(prolific_pid=client.pid)
    assert participant.responses == {
        **ANSWERS,
        "country_other": "Norway",
        "diagnoses_other": "OCD",
        "age_band": "25_34",
    }
    assert participant.traits == ["diagnosis:anxiety", "diagnosis:other"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"answers": {**ANSWERS, "gender": "robot"}}, "answers.gender"),
        ({"answers": {**ANSWERS, "diagnoses": ["none", "anxiety"]}}, "answers.diagnoses"),
        ({"answers": ANSWERS, "other_text": {"diagnoses": "OCD"}}, "other_text.country"),
        (
            {"answers": {**ANSWERS, "gender": "man"}, "other_text": {**OTHER, "gender": "x"}},
            "other_text.gender",
        ),
        ({"answers": {**ANSWERS, "country": "norway"}}, "answers.country"),
        ({"answers": {**ANSWERS, "shoe_size": "42"}}, "answers.shoe_size"),
    ],
)
def test_a_bad_answer_is_named_and_changes_nothing(participant_client, body, field):
    client = _consented(participant_client)
    reply = client.post("profile", {"age": 30, "other_text": OTHER, **body})
    assert reply.status == 400 and reply.error["field"] == field, reply.body
    assert Participant.objects.get(prolific_pid=client.pid).profile_submitted_at is None


def test_prefer_not_to_say_is_its_own_trait(participant_client):
    client = _consented(participant_client)
    body = {"age": 50, "answers": {"diagnoses": ["prefer_not_to_say"]}}
    assert client.post("profile", body).status == 200
    participant = Participant.objects.get(prolific_pid=client.pid)
    assert participant.traits == ["diagnosis:prefer_not_to_say"]


def test_an_under_age_answer_asks_for_confirmation_before_the_screen_out(participant_client):
    client = _consented(participant_client)
    reply = client.post("profile", {"age": 15, "age_confirmed": False})
    assert reply.status == 400 and reply.error["needs_confirmation"] is True
    assert reply.error["message"] == "You entered 15. Is that right?"
    assert client.session()["step"] == "profile"  # nothing ended
    reply = client.post("profile", {"age": 15, "age_confirmed": True})
    assert reply.body["step"] == "screened_out"
