"""The database itself guards the data model's invariants."""

import pytest
from django.db import IntegrityError, transaction

from annotations.models import (
    BehaviourJudgement,
    ModelEndpoint,
    MoodTag,
    PairwiseChoice,
    PanasResponse,
    Study,
    Turn,
)
from tests.factories import make_conversation, make_participant, make_study

pytestmark = pytest.mark.django_db


def refused(create) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


def test_intensity_must_be_1_to_7():
    annotation = make_conversation().turns.first().annotation
    refused(
        lambda: MoodTag.objects.create(
            annotation=annotation, position=9, emotion="Upset", intensity=8
        )
    )


def test_turn_numbers_are_unique_per_conversation():
    conversation = make_conversation()
    refused(lambda: Turn.objects.create(conversation=conversation, number=1, user_message="again"))


def test_judgement_values_are_yes_no_na():
    annotation = make_conversation().turns.first().annotation
    refused(
        lambda: BehaviourJudgement.objects.create(
            annotation=annotation, position=5, question_id="B2", observed="x"
        )
    )


def test_pairwise_labels_and_winner():
    annotation = make_conversation().turns.first().annotation
    refused(
        lambda: PairwiseChoice.objects.create(
            annotation=annotation,
            position=5,
            question_id="general",
            response_a="gpt",
            response_b="original",
        )
    )
    refused(
        lambda: PairwiseChoice.objects.create(
            annotation=annotation,
            position=6,
            question_id="general",
            response_a="human",
            response_b="original",
            winner="C",
        )
    )


def test_panas_totals_stay_in_range_and_one_per_phase():
    conversation = make_conversation()
    refused(
        lambda: PanasResponse.objects.filter(conversation=conversation, phase="pre").update(
            total_positive=71
        )
    )
    refused(
        lambda: PanasResponse.objects.create(
            conversation=conversation, phase="pre", total_positive=20, total_negative=20
        )
    )


def test_study_turn_limits():
    study = make_study()
    refused(lambda: Study.objects.filter(pk=study.pk).update(min_turns=5, max_turns=4))


def test_endpoint_stores_a_variable_name_never_a_key():
    refused(
        lambda: ModelEndpoint.objects.create(
            alias="leaky", litellm_model="openai/gpt-4o", api_key_env="sk-abc123"
        )
    )
    ModelEndpoint.objects.create(
        alias="fine", litellm_model="openai/gpt-4o", api_key_env="OPENAI_API_KEY"
    )


def test_one_participant_per_prolific_pid_and_study():
    study = make_study()
    make_participant(study, prolific_pid="PID1")
    refused(lambda: make_participant(study, prolific_pid="PID1"))
    make_participant(study, prolific_pid="")  # blank ids (imported records) do not collide
    make_participant(study, prolific_pid="")
