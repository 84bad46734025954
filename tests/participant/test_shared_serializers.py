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
