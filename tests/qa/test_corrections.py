"""Corrections are a layer: the participant's original survives, the release can apply either."""

import pytest
from django.urls import reverse

from annotations.interchange.to_records import conversation_to_record
from annotations.models import Conversation, MoodTag, PanasResponse
from annotations.qa.corrections import CorrectionLayer, apply_corrections, correction_rows
from annotations.qa.models import Correction
from annotations.qa.services import QAError
from annotations.qa.services.correcting import add_correction, withdraw_correction
from tests.factories import make_conversation

pytestmark = pytest.mark.django_db

INTENSITY = "turns[turnNumber=1].moodShiftTags[0].intensity"
OBSERVED = "turns[turnNumber=2].annotations.binaryJudgements[questionId=B11].observedBehavior"


@pytest.fixture
def conversation(study):
    return make_conversation(study)


def correct(conversation, actor, path, value, reason="misclick_reported", note=""):
    return add_correction(
        conversation, field_path=path, value=value, reason=reason, note=note, actor=actor
    )


def test_the_original_survives_and_the_layer_applies(conversation, reviewer):
    original = conversation_to_record(conversation)
    correction = correct(conversation, reviewer, INTENSITY, "2", note="participant wrote to us")
    assert (correction.original_value, correction.corrected_value) == (4, 2)
    assert (
        MoodTag.objects.get(
            annotation__turn__conversation=conversation, annotation__turn__number=1
        ).intensity
        == 4
    )
    assert conversation_to_record(conversation) == original  # the stored answer is untouched
    corrected = apply_corrections(original, conversation.pk)
    assert corrected.turns[0].mood_tags[0].intensity == 2
    assert corrected.turns[1:] == original.turns[1:]


@pytest.mark.parametrize(
    ("path", "value", "read"),
    [
        (OBSERVED, "YES", lambda r: r.turns[1].annotations.binary_judgements[1].observed),
        (
            "turns[turnNumber=1].annotations.pairwiseComparisons[0].winner",
            "a",
            lambda r: r.turns[0].annotations.pairwise_comparisons[0].winner,
        ),
        ("turns[turnNumber=2].userMessage", "Café – fixed", lambda r: r.turns[1].user_message),
        (
            "turns[turnNumber=1].annotations.alternateResponses.humanEdited",
            "Fixed edit",
            lambda r: r.turns[0].annotations.human_edited,
        ),
        (
            "turns[turnNumber=1].moodShiftTags[0].emotion",
            "upset",
            lambda r: r.turns[0].mood_tags[0].emotion,
        ),
        (
            "conversationWideQuestions.q3_modelFit",
            "very_well",
            lambda r: r.conversation_wide.model_fit,
        ),
        (
            "conversationWideQuestions.fourBranchScores.understanding",
            "3",
            lambda r: r.conversation_wide.four_branch.understanding,
        ),
    ],
)
def test_each_kind_of_field(conversation, reviewer, path, value, read):
    correction = correct(conversation, reviewer, path, value)
    corrected = apply_corrections(conversation_to_record(conversation), conversation.pk)
    assert read(corrected) == correction.corrected_value
    assert read(conversation_to_record(conversation)) == correction.original_value


def test_panas_totals_follow_a_corrected_item(conversation, reviewer):
    response = PanasResponse.objects.get(conversation=conversation, phase="pre")
    from attunebench.vocabulary import PANAS_NEGATIVE, PANAS_POSITIVE

    response.items = {**dict.fromkeys(PANAS_POSITIVE, 3), **dict.fromkeys(PANAS_NEGATIVE, 4)}
    response.total_positive, response.total_negative = 30, 40
    response.save()
    correct(conversation, reviewer, "prePanas.items.nervous", "7")
    corrected = apply_corrections(conversation_to_record(conversation), conversation.pk).pre_panas
    assert (
        corrected.items["Nervous"] == 7
        and corrected.total_negative == 43
        and corrected.total_positive == 30
    )


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("turns[turnNumber=9].userMessage", "x", "no turn 9"),
        ("turns[turnNumber=1].moodShiftTags[5].intensity", "3", "no mood tag 5"),
        (INTENSITY, "9", "outside 1..7"),
        (INTENSITY, "4", "participant's own answer"),
        (OBSERVED, "maybe", "not one of"),
        ("conversationWideQuestions.q3_modelFit", "great", "not an option"),
        ("participant.age", "30", "not a correctable field"),
    ],
)
def test_invalid_corrections_are_refused(conversation, reviewer, path, value, message):
    with pytest.raises(QAError, match=message):
        correct(conversation, reviewer, path, value)
    assert not Correction.objects.exists()


def test_a_technical_error_needs_a_note(conversation, reviewer):
    with pytest.raises(QAError, match="Say what"):
        correct(conversation, reviewer, INTENSITY, "2", reason="technical_error")


def test_a_new_correction_replaces_the_active_one_and_keeps_the_original(conversation, reviewer):
    first = correct(conversation, reviewer, INTENSITY, "2")
    second = correct(conversation, reviewer, INTENSITY, "3")
    first.refresh_from_db()
    assert first.withdrawn_at is not None and second.original_value == 4
    assert (
        apply_corrections(conversation_to_record(conversation), conversation.pk)
        .turns[0]
        .mood_tags[0]
        .intensity
        == 3
    )
    withdraw_correction(second, actor=reviewer)
    assert apply_corrections(
        conversation_to_record(conversation), conversation.pk
    ) == conversation_to_record(conversation)
    with pytest.raises(QAError, match="already withdrawn"):
        withdraw_correction(second, actor=reviewer)


def test_the_layer_for_many_conversations_and_the_export_rows(study, conversation, reviewer):
    other = make_conversation(study)
    correct(conversation, reviewer, INTENSITY, "2")
    layer = CorrectionLayer.for_conversations([conversation.pk, other.pk])
    assert (
        layer.corrected_fields(conversation.pk) == [INTENSITY]
        and layer.corrected_fields(other.pk) == []
    )
    assert correction_rows(Conversation.objects.filter(study=study)) == [
        {
            "conversationId": conversation.external_id,
            "field": INTENSITY,
            "original": 4,
            "corrected": 2,
            "reason": "misclick_reported",
            "note": "",
            "correctedAt": Correction.objects.get().created_at.isoformat(),
        }
    ]


def test_the_page_shows_both_layers_and_the_form_corrects(client, conversation, reviewer):
    client.force_login(reviewer)
    response = client.post(
        reverse("qa:correction_add", args=[conversation.pk]),
        {"field_path": INTENSITY, "value": "2", "reason": "misclick_reported", "note": ""},
    )
    assert response.status_code == 302
    page = client.get(reverse("qa:conversation", args=[conversation.pk])).text
    assert '<del title="The participant\'s answer">4</del>' in page and "<ins" in page
    assert f'data-path="{INTENSITY}"' in page
