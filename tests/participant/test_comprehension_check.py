"""The comprehension check after consent (issue 37, item 6): the study's questions in the
participant's language without their answers, two attempts, and a second failure that ends the
session with the screen-out code, audited, taking no place."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from annotations.models import AuditEntry, Conversation, ConversationState, Participant
from annotations.models.study import validate_comprehension_questions, validate_translations
from annotations.services.comprehension import COMPREHENSION_FAILED, SUBMIT_ACTION
from annotations.services.participants import is_full
from annotations.services.places import place_counts
from tests.factories import COMPREHENSION_QUESTIONS as QUESTIONS
from tests.factories import RIGHT_ANSWERS as RIGHT
from tests.factories import WRONG_ANSWERS as WRONG

pytestmark = pytest.mark.django_db


@pytest.fixture
def checked_study(make_chat_study):
    return make_chat_study(comprehension_questions=QUESTIONS, target_participants=1)


@pytest.fixture
def consented(participant_client, checked_study):
    def make():
        client = participant_client(checked_study)
        client.start()
        session = client.post("consent", {"consent_version": "2", "agree": True}).body
        return client, session

    return make


def test_the_check_comes_right_after_consent_without_its_answers(consented):
    client, session = consented()
    assert session["step"] == "comprehension"
    check = session["comprehension"]
    assert check["attempts_left"] == 2 and check["failed_before"] is False
    assert [q["id"] for q in check["questions"]] == ["task", "stop"]
    assert check["questions"][0]["options"] == [
        {"id": "chat", "text": "Chat and rate"},
        {"id": "video", "text": "Watch"},
    ]
    # The right answers never reach the participant.
    assert all(set(q) == {"id", "question", "options"} for q in check["questions"])
    # The profile waits for the check.
    refused = client.post("profile", {"age": 30})
    assert refused.status == 409 and refused.error["code"] == "wrong_step"


def test_a_right_answer_opens_the_profile(consented):
    client, _ = consented()
    session = client.post("comprehension", {"answers": RIGHT}).body
    assert session["step"] == "profile" and session["comprehension"] is None
    person = Participant.objects.get(prolific_pid=client.pid)
    assert person.comprehension_passed_at is not None and person.comprehension_attempts == 0
    assert client.post("comprehension", {"answers": RIGHT}).error["code"] == "wrong_step"


def test_one_wrong_attempt_leaves_a_second(consented):
    client, _ = consented()
    session = client.post("comprehension", {"answers": WRONG}).body
    assert session["step"] == "comprehension"
    assert session["comprehension"]["attempts_left"] == 1
    assert session["comprehension"]["failed_before"] is True
    session = client.post("comprehension", {"answers": RIGHT}).body
    assert session["step"] == "profile"


def test_two_wrong_attempts_screen_out_with_the_code_and_free_the_place(consented, checked_study):
    client, _ = consented()
    assert is_full(checked_study)  # one place, held since consent
    client.post("comprehension", {"answers": WRONG})
    session = client.post("comprehension", {"answers": {"task": "chat", "stop": "no"}}).body
    assert session["step"] == "screened_out"
    assert session["screenout"]["code"] == "SCR33N"
    assert session["screenout"]["redirect_url"].endswith("cc=SCR33N")
    person = Participant.objects.get(prolific_pid=client.pid)
    assert person.screenout_reason == COMPREHENSION_FAILED
    assert Conversation.objects.get(participant=person).state == ConversationState.ABANDONED
    entries = AuditEntry.objects.filter(action=SUBMIT_ACTION, target_id=str(person.pk))
    assert sorted((e.data["attempt"], e.data["wrong"]) for e in entries) == [
        (1, ["task"]),
        (2, ["stop"]),
    ]
    assert place_counts(checked_study).held == 0 and not is_full(checked_study)
    # The session is over: a third attempt changes nothing.
    third = client.post("comprehension", {"answers": RIGHT})
    assert third.status == 403 and third.error["code"] == "screened_out"


@pytest.mark.parametrize(
    ("answers", "field"),
    [
        ({"task": "chat"}, "answers.stop"),
        ({"task": "chat", "stop": "maybe"}, "answers.stop"),
        ({**RIGHT, "extra": "x"}, "answers.extra"),
    ],
)
def test_an_incomplete_or_unknown_answer_counts_no_attempt(consented, answers, field):
    client, _ = consented()
    reply = client.post("comprehension", {"answers": answers})
    assert reply.status == 400 and reply.error["field"] == field
    assert Participant.objects.get(prolific_pid=client.pid).comprehension_attempts == 0


def test_the_questions_come_in_the_participant_language(participant_client, make_chat_study):
    study = make_chat_study(
        comprehension_questions=QUESTIONS,
        languages=["en", "es"],
        translations={
            "es": {
                "comprehension": {
                    "task": {"question": "¿Qué harás?", "options": {"chat": "Conversar"}}
                }
            }
        },
    )
    client = participant_client(study)
    client.start(language="es")
    session = client.post("consent", {"consent_version": "2", "agree": True}).body
    task, stop = session["comprehension"]["questions"]
    assert task["question"] == "¿Qué harás?"
    # A text left untranslated shows the default language's.
    assert [o["text"] for o in task["options"]] == ["Conversar", "Watch"]
    assert stop["question"] == "Can you stop at any time?"


def test_a_study_without_questions_has_no_check(participant_client):
    client = participant_client()
    client.start()
    assert client.post("consent", {"consent_version": "2", "agree": True}).body["step"] == "profile"


@pytest.mark.parametrize(
    "questions",
    [
        [{**QUESTIONS[0], "answer": "nope"}],
        [{**QUESTIONS[0], "options": [{"id": "only", "text": "One"}], "answer": "only"}],
        [QUESTIONS[0], QUESTIONS[0]],
        [{**QUESTIONS[0], "question": " "}],
        "not a list",
    ],
)
def test_a_malformed_question_list_is_refused(questions):
    with pytest.raises(ValidationError):
        validate_comprehension_questions(questions)


def test_a_malformed_translation_is_refused():
    with pytest.raises(ValidationError):
        validate_translations({"es": {"comprehension": {"task": {"options": ["x"]}}}})
    validate_translations({"es": {"comprehension": {"task": {"question": "¿?"}}}})
