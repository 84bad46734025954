"""Attention checks in the annotation step (issue 37, item 6): the turns the study names carry
an instructed-response item, its answer is required and stored whatever it is, and a wrong one
raises QA's failed_attention_check flag (a right one does not)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from annotations.models import TurnAnnotation
from annotations.models.study import ATTENTION_OPTIONS, validate_attention_check_turns
from tests.qa.conftest import flags_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def checked(participant_client, make_chat_study, answered_turn):
    """A participant whose first reply's step carries an attention check (the second's none)."""
    client = participant_client(make_chat_study(attention_check_turns=[1], max_turns=3))
    client.onboard()
    answered_turn(client)
    return client


def _step(number: int = 1) -> TurnAnnotation:
    return TurnAnnotation.objects.get(turn__number=number)


def test_the_step_shows_the_instructed_option_among_all(checked):
    shown = checked.get("turns/1/annotation").body["attention_check"]
    assert shown == {"instructed": _step().attention_expected, "options": list(ATTENTION_OPTIONS)}
    assert shown["instructed"] in ATTENTION_OPTIONS


def test_its_answer_is_required(checked):
    reply = checked.annotate(1)
    assert reply.status == 400 and reply.error["field"] == "attention"
    assert _step().submitted_at is None


def test_a_wrong_answer_is_saved_and_flagged(checked):
    expected = _step().attention_expected
    wrong = next(option for option in ATTENTION_OPTIONS if option != expected)
    assert checked.annotate(1, attention=wrong).status == 200
    assert _step().attention_answer == wrong
    conversation = _step().turn.conversation
    flag = flags_of(conversation)["failed_attention_check"]
    assert flag.evidence["failed"] == [
        {"survey": "annotation", "item": "turn-1", "given": wrong, "expected": [expected]}
    ]


def test_a_right_answer_raises_no_flag(checked):
    assert checked.annotate(1, attention=_step().attention_expected).status == 200
    assert "failed_attention_check" not in flags_of(_step().turn.conversation)


def test_an_unanswered_check_is_not_a_failure(checked):
    assert "failed_attention_check" not in flags_of(_step().turn.conversation)


def test_a_turn_without_a_check_refuses_an_answer(participant_client, chat_study, answered_turn):
    client = participant_client(chat_study)
    client.onboard()
    answered_turn(client)
    assert client.get("turns/1/annotation").body["attention_check"] is None
    reply = client.annotate(1, attention="agree")
    assert reply.status == 400 and reply.error["field"] == "attention"
    assert client.annotate(1).status == 200
    assert _step().attention_expected == "" and _step().attention_answer == ""


@pytest.mark.parametrize("turns", [[0], [1, 1], ["2"], [True], "1"])
def test_a_malformed_turn_list_is_refused(turns):
    with pytest.raises(ValidationError):
        validate_attention_check_turns(turns)
