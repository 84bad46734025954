"""The reader accepts every alias of the format (spec section 1) and normalises it."""

from attunebench.reader import read_conversation_file
from tests.fixtures import REFERENCE_CONVERSATION


def read():
    return read_conversation_file(REFERENCE_CONVERSATION)


def test_turns_are_sorted_by_number():
    assert [t.turn_number for t in read().turns] == [1, 2]


def test_legacy_judgement_keys_and_case_are_normalised():
    judgements = read().turns[0].annotations.binary_judgements
    assert [(j.question_id, j.llm_value, j.observed, j.preferred) for j in judgements] == [
        ("B1", "yes", "yes", "yes"),
        ("B13", None, "yes", "na"),
        ("B11", None, "no", None),
    ]


def test_legacy_intensity_words_and_item_case():
    tags = read().turns[0].mood_tags
    assert [(t.emotion, t.intensity) for t in tags] == [("Upset", 6), ("Nervous", None)]


def test_old_pairwise_keys():
    comparisons = read().turns[0].annotations.pairwise_comparisons
    assert [(c.question_id, c.response_a, c.response_b, c.winner) for c in comparisons] == [
        ("general", "original", "human", "B"),
        ("PW4", "alternate", "original", None),
    ]


def test_alternate_aliases():
    annotations = read().turns[1].annotations
    assert (annotations.llm_improved, annotations.human_edited) == ("Improved.", "Edited.")


def test_panas_items_nested_under_responses_and_totals_derived():
    pre = read().pre_panas
    assert pre.items == {"Proud": 2, "Nervous": 6, "Upset": 5, "Interested": 3}
    # 2 + 3 = 5 positive, clamped up to the PANAS minimum of 10; 6 + 5 = 11 negative.
    assert (pre.total_positive, pre.total_negative) == (10, 11)


def test_given_totals_are_clamped():
    post = read().post_panas
    assert (post.total_positive, post.total_negative) == (70, 22)


def test_legacy_conversation_wide_keys():
    wide = read().conversation_wide
    assert wide.looking_for == ("be listened to",)
    assert (wide.emotion_clarity, wide.model_fit) == ("mixed", "mostly well matched")
    assert wide.four_branch.as_dict() == {
        "perceiving": 6,
        "facilitating": 5,
        "understanding": None,
        "managing": 4,
    }


def test_open_objects_keep_unknown_keys():
    conversation = read()
    assert conversation.metadata.other == {
        "text": "free text the reference keeps",
        "conversation_visibility": "private",
    }
    assert conversation.participant_profile.other == {"recruited_via": "panel"}
    assert conversation.participant_profile.extra == {"country": "UK"}
    assert conversation.turns[0].annotations.other == {"reviewer_note": "kept as an unknown key"}


def test_profile_numbers_given_as_text():
    profile = read().participant_profile
    assert (profile.age, profile.schema_version, profile.participant_id) == (34, "2", "P-0042")
