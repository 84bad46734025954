"""The instrument definition: the shipped default matches the spec, and validation is strict.

Pure tests (no database): run with ``pytest tests/benchmark/test_instrument.py -p no:django``.
The expected tables below are copied by hand from attunebench-format.md section 2, not derived
from the module, so a drift in the shipped JSON is caught.
"""

import math

import pytest

from attunebench.instrument import (
    ANSWER_VALUES,
    BEHAVIOUR_CATEGORIES,
    FOUR_BRANCHES,
    LEGACY_INTENSITY,
    RESPONSE_LABELS,
    Instrument,
    InstrumentError,
    default_instrument,
    default_instrument_data,
    load_instrument,
)

EXPECTED_CATEGORIES = {
    "B1": "perceiving",
    "B2": "perceiving",
    "B3": "perceiving",
    "B108": "perceiving",
    "B109": "perceiving",
    "B4": "understanding",
    "B5": "understanding",
    "B6": "understanding",
    "B7": "understanding",
    "B206": "understanding",
    "B207": "understanding",
    "B8": "using",
    "B9": "using",
    "B10": "using",
    "B11": "using",
    "B12": "using",
    "B13": "using",
    "B14": "using",
    "B15": "using",
    "B310": "using",
    "B311": "using",
    "B313": "using",
    "B315": "using",
    "B316": "using",
    "B16": "regulating",
    "B17": "regulating",
    "B18": "regulating",
    "B19": "regulating",
    "B20": "regulating",
    "B406": "regulating",
    "B408": "regulating",
    "B501": "cognitive_framing",
    "B502": "cognitive_framing",
    "B503": "cognitive_framing",
    "B504": "cognitive_framing",
    "B505": "cognitive_framing",
}

# name: (polarity, valence, arousal)
EXPECTED_PANAS = {
    "Proud": ("positive", 0.85, 0.65),
    "Alert": ("positive", 0.7, 0.75),
    "Inspired": ("positive", 0.9, 0.7),
    "Determined": ("positive", 0.78, 0.72),
    "Attentive": ("positive", 0.68, 0.6),
    "Active": ("positive", 0.72, 0.8),
    "Excited": ("positive", 0.8, 0.85),
    "Strong": ("positive", 0.75, 0.7),
    "Enthusiastic": ("positive", 0.82, 0.78),
    "Interested": ("positive", 0.65, 0.6),
    "Irritable": ("negative", 0.22, 0.68),
    "Ashamed": ("negative", 0.13, 0.62),
    "Nervous": ("negative", 0.188, 0.72),
    "Jittery": ("negative", 0.196, 0.788),
    "Distressed": ("negative", 0.125, 0.75),
    "Afraid": ("negative", 0.073, 0.84),
    "Upset": ("negative", 0.167, 0.65),
    "Guilty": ("negative", 0.15, 0.6),
    "Scared": ("negative", 0.083, 0.82),
    "Hostile": ("negative", 0.2, 0.7),
}


def _error_for(data: dict) -> InstrumentError:
    with pytest.raises(InstrumentError) as info:
        load_instrument(data)
    return info.value


# -- The shipped instrument ---------------------------------------------------------------------


def test_default_instrument_loads_and_is_cached():
    instrument = default_instrument()
    assert isinstance(instrument, Instrument)
    assert instrument.name == "attune-default"
    assert instrument.version == 1
    assert default_instrument() is instrument
    assert instrument.intensity_scale.min == 1
    assert instrument.intensity_scale.max == 7
    assert instrument.intensity_scale.label(7) == "extremely"


def test_default_has_the_36_behaviour_questions_of_the_spec():
    instrument = default_instrument()
    assert len(instrument.behaviour_ids) == 36
    actual = {q.id: q.category for q in instrument.behaviour_questions}
    assert actual == EXPECTED_CATEGORIES
    # Third person for the model, second person for the participant: never mixed.
    for q in instrument.behaviour_questions:
        assert "the assistant" in q.model_wording.lower(), q.id
        assert " you" not in q.model_wording.lower(), q.id
        assert "participant" not in q.participant_wording.lower(), q.id
        assert "assistant" not in q.participant_wording.lower(), q.id
    assert instrument.behaviour_question("B108").category == "perceiving"
    assert instrument.behaviour_question("B999") is None


def test_default_has_the_20_panas_items_with_spec_coordinates():
    instrument = default_instrument()
    assert instrument.panas_ids == tuple(EXPECTED_PANAS)  # file order = spec order
    for item in instrument.panas_items:
        assert (item.polarity, item.valence, item.arousal) == EXPECTED_PANAS[item.id]
        assert item.description
    assert len(instrument.positive_items) == 10
    assert len(instrument.negative_items) == 10


def test_default_pairwise_branches_and_post_chat_questions():
    instrument = default_instrument()
    assert instrument.pairwise_ids == ("general", *(f"PW{n}" for n in range(1, 16)))
    assert instrument.branch_ids == FOUR_BRANCHES
    assert len(instrument.q1_looking_for.options) == 7
    assert instrument.q1_looking_for.multi
    assert "other" in instrument.q1_looking_for.option_ids
    assert len(instrument.q2_emotion_clarity.options) == 4
    assert not instrument.q2_emotion_clarity.multi
    q3 = instrument.q3_model_fit
    assert len(q3.options) == 4 and q3.ordinal and not q3.multi
    # The follow-up is shown for the two worst answers, which are last on an ordinal scale.
    assert set(instrument.q3_follow_up.shown_when) == set(q3.option_ids[-2:])
    assert instrument.support_resources


def test_constants():
    assert BEHAVIOUR_CATEGORIES == (
        "perceiving",
        "understanding",
        "using",
        "regulating",
        "cognitive_framing",
    )
    assert FOUR_BRANCHES == ("perceiving", "facilitating", "understanding", "managing")
    assert ANSWER_VALUES == ("yes", "no", "na")
    assert RESPONSE_LABELS == ("original", "alternate", "human")
    assert LEGACY_INTENSITY == {"mild": 2, "moderate": 4, "intense": 6}


# -- Helpers -------------------------------------------------------------------------------------


def test_panas_lookup_is_case_insensitive():
    instrument = default_instrument()
    assert instrument.panas_item("upset").id == "Upset"
    assert instrument.panas_item("  DISTRESSED ").id == "Distressed"
    assert instrument.panas_item("happy") is None


def test_va_similarity_by_hand():
    instrument = default_instrument()
    # Proud (.85, .65) vs Upset (.167, .65): distance .683, .683 / sqrt(2) = .482954 -> .517046
    assert instrument.va_similarity("Proud", "Upset") == pytest.approx(0.517046, abs=1e-6)
    # Afraid (.073, .84) vs scared (.083, .82): distance sqrt(.0005) = .0223607 -> 1 - .0158114
    assert instrument.va_similarity("afraid", "SCARED") == pytest.approx(0.984189, abs=1e-6)
    assert instrument.va_similarity("Strong", "strong") == 1.0
    assert math.isclose(
        instrument.va_similarity("Upset", "Proud"), instrument.va_similarity("Proud", "Upset")
    )


def test_va_similarity_unknown_name_raises():
    with pytest.raises(KeyError, match="happy"):
        default_instrument().va_similarity("happy", "Proud")


def test_pairwise_id_validity():
    instrument = default_instrument()
    assert instrument.is_valid_pairwise_id("general")
    assert instrument.is_valid_pairwise_id("PW15")
    assert instrument.is_valid_pairwise_id("custom:Which reply felt warmer?")
    assert not instrument.is_valid_pairwise_id("custom:")
    assert not instrument.is_valid_pairwise_id("PW16")
    assert not instrument.is_valid_pairwise_id("pw1")


def test_to_dict_round_trips_to_the_shipped_file():
    instrument = default_instrument()
    assert instrument.to_dict() == default_instrument_data()
    assert load_instrument(instrument.to_dict()) == instrument


def test_default_instrument_data_is_a_fresh_copy():
    default_instrument_data()["name"] = "changed"
    assert default_instrument_data()["name"] == "attune-default"


# -- Hash ----------------------------------------------------------------------------------------


def test_hash_is_stable_and_ignores_key_order():
    data = default_instrument_data()
    first = load_instrument(data).canonical_hash()
    assert len(first) == 64
    assert load_instrument(default_instrument_data()).canonical_hash() == first
    reordered = dict(reversed(list(data.items())))
    assert load_instrument(reordered).canonical_hash() == first
    assert default_instrument().canonical_hash() == first


def test_hash_changes_when_a_wording_changes():
    data = default_instrument_data()
    before = load_instrument(data).canonical_hash()
    data["behaviour_questions"][0]["participant_wording"] = "Did the reply notice your feelings?"
    assert load_instrument(data).canonical_hash() != before


# -- Validation: each error names the field ------------------------------------------------------


def test_missing_required_key():
    data = default_instrument_data()
    del data["pairwise_questions"]
    error = _error_for(data)
    assert error.field == "pairwise_questions"
    assert "required" in str(error)


def test_unknown_key_is_rejected():
    data = default_instrument_data()
    data["behaviour_questions"][2]["participant_wordng"] = "typo"
    assert _error_for(data).field == "behaviour_questions[2].participant_wordng"


def test_duplicate_behaviour_id():
    data = default_instrument_data()
    data["behaviour_questions"][5]["id"] = "B1"
    error = _error_for(data)
    assert error.field == "behaviour_questions[5].id"
    assert "duplicate" in str(error) and "'B1'" in str(error)


def test_unknown_category():
    data = default_instrument_data()
    data["behaviour_questions"][3]["category"] = "foo"
    error = _error_for(data)
    assert str(error).startswith("behaviour_questions[3].category: 'foo' is not one of")


def test_empty_wording():
    data = default_instrument_data()
    data["pairwise_questions"][1]["model_wording"] = "   "
    assert _error_for(data).field == "pairwise_questions[1].model_wording"


def test_nineteen_panas_items():
    data = default_instrument_data()
    data["panas_items"].pop()
    error = _error_for(data)
    assert error.field == "panas_items"
    assert "20" in str(error) and "19" in str(error)


def test_unbalanced_panas_polarity():
    data = default_instrument_data()
    data["panas_items"][19]["polarity"] = "positive"
    error = _error_for(data)
    assert error.field == "panas_items"
    assert "11 positive" in str(error) and "9 negative" in str(error)


def test_unknown_panas_polarity():
    data = default_instrument_data()
    data["panas_items"][0]["polarity"] = "neutral"
    assert _error_for(data).field == "panas_items[0].polarity"


def test_valence_out_of_range():
    data = default_instrument_data()
    data["panas_items"][4]["valence"] = 1.5
    error = _error_for(data)
    assert error.field == "panas_items[4].valence"
    assert "1.5" in str(error)


def test_arousal_not_a_number():
    data = default_instrument_data()
    data["panas_items"][0]["arousal"] = "high"
    assert _error_for(data).field == "panas_items[0].arousal"


def test_duplicate_panas_id_ignores_case():
    data = default_instrument_data()
    data["panas_items"][1]["id"] = "proud"
    assert _error_for(data).field == "panas_items[1].id"


def test_bad_pairwise_id():
    data = default_instrument_data()
    data["pairwise_questions"][2]["id"] = "Q2"
    error = _error_for(data)
    assert error.field == "pairwise_questions[2].id"
    assert "'Q2'" in str(error)


def test_duplicate_pairwise_id():
    data = default_instrument_data()
    data["pairwise_questions"][3]["id"] = "PW1"
    assert _error_for(data).field == "pairwise_questions[3].id"


def test_unknown_branch():
    data = default_instrument_data()
    data["four_branches"][1]["id"] = "using"
    assert _error_for(data).field == "four_branches[1].id"


def test_missing_branch():
    data = default_instrument_data()
    data["four_branches"].pop()
    error = _error_for(data)
    assert error.field == "four_branches"
    assert "managing" in str(error)


def test_duplicate_branch():
    data = default_instrument_data()
    data["four_branches"][3]["id"] = "perceiving"
    assert _error_for(data).field == "four_branches[3].id"


def test_intensity_scale_min_not_below_max():
    data = default_instrument_data()
    data["intensity_scale"]["min"] = 7
    assert _error_for(data).field == "intensity_scale.max"


def test_intensity_label_outside_scale():
    data = default_instrument_data()
    data["intensity_scale"]["labels"]["8"] = "beyond"
    assert _error_for(data).field == "intensity_scale.labels.8"


def test_duplicate_option_id():
    data = default_instrument_data()
    data["conversation_wide"]["q2_emotion_clarity"]["options"][1]["id"] = "clear"
    assert _error_for(data).field == "conversation_wide.q2_emotion_clarity.options[1].id"


def test_follow_up_must_name_q3_options():
    data = default_instrument_data()
    data["conversation_wide"]["q3_follow_up"]["shown_when"] = ["vent"]
    assert _error_for(data).field == "conversation_wide.q3_follow_up.shown_when[0]"


def test_multi_must_be_boolean():
    data = default_instrument_data()
    data["conversation_wide"]["q1_looking_for"]["multi"] = "yes"
    assert _error_for(data).field == "conversation_wide.q1_looking_for.multi"


def test_root_must_be_an_object():
    with pytest.raises(InstrumentError):
        load_instrument([])  # type: ignore[arg-type]


def test_instrument_error_is_a_value_error():
    assert issubclass(InstrumentError, ValueError)
