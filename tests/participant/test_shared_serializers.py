"""Answers and body checks read one shared serializer instance per class
(``json_limits.shared_instance``: DRF deep-copies every field for each new instance). What they
give must be what a new instance gives, from several pool threads at once too."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from rest_framework.exceptions import ValidationError

from annotations.models import TurnAnnotation
from annotations.participant_api import serializers as io
from annotations.participant_api.json_limits import parse_body, represent, shared_instance
from annotations.services import progress
from annotations.services.participant_sessions import participant_for_token

pytestmark = pytest.mark.django_db
THREADS = 4


@pytest.fixture
def chatting(participant_client, answered_turn):
    client = participant_client()
    client.onboard()
    answered_turn(client)
    return client


def test_an_answer_is_what_a_new_serializer_gives(chatting):
    step = TurnAnnotation.objects.select_related("turn__conversation__study").get()
    session = progress.progress_of(participant_for_token(chatting.token))
    assert represent(io.AnnotationStepOutput, step) == io.AnnotationStepOutput(step).data
    assert represent(io.SessionOutput, session) == io.SessionOutput(session).data
    assert represent(io.TurnOutput, step.turn) == io.TurnOutput(step.turn).data


def test_threads_sharing_the_instance_get_the_same_answers(chatting):
    step = TurnAnnotation.objects.select_related("turn__conversation__study").get()
    expected = io.AnnotationStepOutput(step).data
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        answers = list(
            pool.map(lambda _: represent(io.AnnotationStepOutput, step), range(THREADS * 10))
        )
    assert all(answer == expected for answer in answers)
    assert shared_instance(io.AnnotationStepOutput) is shared_instance(io.AnnotationStepOutput)


def test_a_body_is_checked_the_same_every_time(chatting):
    body = chatting.valid_annotation(1)
    first = parse_body(io.AnnotationInput, {**body, "unknown": "dropped"})
    assert parse_body(io.AnnotationInput, body) == first
    assert "unknown" not in first
    with pytest.raises(ValidationError) as refused:
        parse_body(io.AnnotationInput, {**body, "mood_tags": "not a list"})
    assert "mood_tags" in refused.value.detail
    assert parse_body(io.AnnotationInput, body) == first  # a refused body left nothing behind


REFUSED_BODIES = [
    {"mood_tags": "not a list"},
    {"mood_tags": [{"emotion": "", "intensity": "many"}]},
    {"behaviour": {"q1": {"observed": "perhaps", "preferred": "yes"}}},
    {"behaviour": {"q1": {"observed": "yes"}}},
    {"pairwise": {"q1": "C"}},
    {"timings": {"mood": -1}},
    {"edited_reply": "x" * 100_000},
]


@pytest.mark.parametrize("change", REFUSED_BODIES)
def test_a_refusal_names_what_a_new_serializer_names(chatting, change):
    """parse_body validates on the shared instance (no instance per body): its errors are the
    ones a new serializer's is_valid() gives for the same body."""
    body = {**chatting.valid_annotation(1), **change}
    fresh = io.AnnotationInput(data=body)
    assert not fresh.is_valid()
    with pytest.raises(ValidationError) as refused:
        parse_body(io.AnnotationInput, body)
    assert refused.value.detail == fresh.errors


def test_threads_validating_different_bodies_each_get_their_own(chatting):
    """Validation on the shared instance keeps nothing between bodies: threads checking good
    and bad bodies at once each get their own body's result."""
    good = chatting.valid_annotation(1)
    bad = {**good, "behaviour": {"q1": {"observed": "perhaps", "preferred": "yes"}}}
    expected = parse_body(io.AnnotationInput, good)

    def check(i: int) -> object:
        if i % 2:
            with pytest.raises(ValidationError) as refused:
                parse_body(io.AnnotationInput, bad)
            return refused.value.detail["behaviour"]["q1"]["observed"][0].code
        return parse_body(io.AnnotationInput, {**good, "timings": {"mood": float(i)}})

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        results = list(pool.map(check, range(THREADS * 20)))
    for i, result in enumerate(results):
        if i % 2:
            assert result == "invalid_choice"
        else:
            assert result == {**expected, "timings": {"mood": float(i)}}
