"""Run-output records (spec section 6): canonical round trip, lenient reading, file names."""

import copy
import json

import pytest

from attunebench.records import MoodTag
from attunebench.run_output import (
    DraftJudgeScores,
    RunOutput,
    TurnOutput,
    dumps_run_output,
    loads_run_output,
    read_run_output_file,
    run_output_filename,
    run_output_from_dict,
    run_output_to_dict,
)

CANONICAL = {
    "conversationId": "1042",
    "source_file": "conversation_1042.json",
    "em_model": "openai/gpt-4o",
    "run_timestamp": "2026-05-01T10:00:00Z",
    "mode": "verbose",
    "api_cost": 0.0123,
    "duration_seconds": 12.5,
    "prompt_version": "attune-v1",
    "parse_failures": {
        "om_review": {"calls": 2, "failures": 1},
        "post_conversation": {"calls": 1, "failures": 0},
    },
    "turns": [
        {
            "turnNumber": 1,
            "em_emotion_tags": [
                {"emotion": "Nervous", "intensity": 5},
                {"emotion": "Upset", "intensity": None},
            ],
            "em_drafted_response": "That sounds hard — tell me more?",
            "response_reasoning": "mirror first",
            "emotion_reasoning": "worried wording",
            "pairwise_assignment": {"0": {"A": "original", "B": "human"}},
            "em_binary_om_assessment": {"B1": "yes", "B13": "no", "B2": "na"},
            "em_binary_human_prediction": {"B1": "yes", "B13": "yes", "B2": "no"},
            "em_binary_om_assessment_hp": {"B1": "yes"},
            "em_binary_human_prediction_hp": {"B1": "no"},
            "em_pairwise_selections": {"0": "B"},
            "em_draft_judge_scores": {
                "overall_score": 5,
                "emotional_appropriateness": 6,
                "helpfulness": 4.5,
                "tone_match": 5,
            },
            "em_draft_judge_scores_by_model": {
                "judge/a": {
                    "overall_score": 5,
                    "emotional_appropriateness": 6,
                    "helpfulness": 4,
                    "tone_match": 5,
                },
                "judge/b": {
                    "overall_score": 5,
                    "emotional_appropriateness": 6,
                    "helpfulness": 5,
                    "tone_match": 5,
                },
            },
            "em_draft_binary_assessment": {"B1": "yes"},
            "em_draft_binary_assessment_by_model": {
                "judge/a": {"B1": "yes"},
                "judge/b": {"B1": "no"},
            },
        }
    ],
    "post_conversation": {
        "panas_strategy": "delta",
        "pre_panas_shown": {"totalPositiveAffect": 30, "totalNegativeAffect": 20},
        "predicted_post_panas": {
            "totalPositiveAffect": 32,
            "totalNegativeAffect": 19,
            "items": {"Proud": 5},
        },
        "predicted_panas_delta": {"items": {"Proud": 2, "Upset": -1}},
        "predicted_conversation_wide": {
            "q1_lookingFor": ["To be listened to / to vent"],
            "q2_emotionClarity": "clear and explicit",
            "q3_modelFit": "mixed",
            "q3_followUp_whatFeltOff": ["trop long, à mon avis"],
            "fourBranchScores": {
                "perceiving": 5,
                "facilitating": None,
                "understanding": 4,
                "managing": 3,
            },
        },
    },
}


def test_round_trip_dict_record_dict_is_identical_and_byte_stable():
    original = copy.deepcopy(CANONICAL)
    record = run_output_from_dict(original)
    assert run_output_to_dict(record) == CANONICAL
    text = dumps_run_output(record)
    # byte-stable: same key order as the canonical dict, indent 2, non-ASCII kept, final newline
    assert text == json.dumps(CANONICAL, indent=2, ensure_ascii=False) + "\n"
    assert "à mon avis" in text and text.endswith("}\n")
    assert dumps_run_output(loads_run_output(text)) == text
    assert loads_run_output(text) == record


def test_typed_fields():
    record = run_output_from_dict(CANONICAL)
    turn = record.turns[0]
    assert record.conversation_id == "1042" and record.api_cost == 0.0123
    assert record.parse_failures["om_review"] == {"calls": 2, "failures": 1}
    assert turn.turn_number == 1
    assert turn.em_emotion_tags == (MoodTag("Nervous", 5), MoodTag("Upset", None))
    assert turn.em_draft_judge_scores == DraftJudgeScores(5, 6, 4.5, 5)
    assert turn.em_draft_judge_scores_by_model["judge/b"].helpfulness == 5
    post = record.post_conversation
    assert post.predicted_panas_delta.items == {"Proud": 2, "Upset": -1}
    assert post.predicted_panas_delta.total_positive is None
    assert post.predicted_conversation_wide.q3_model_fit == "mixed"
    assert post.predicted_conversation_wide.four_branch_scores["facilitating"] is None


def test_unknown_keys_are_kept_and_written_sorted_after_known_keys():
    data = copy.deepcopy(CANONICAL)
    data["zeta"] = 1
    data["alpha"] = {"x": [1]}
    data["turns"][0]["extra_field"] = "kept"
    written = run_output_to_dict(run_output_from_dict(data))
    assert list(written)[-2:] == ["alpha", "zeta"]
    assert written["turns"][0]["extra_field"] == "kept"


def test_lenient_reading_of_a_minimal_foreign_file():
    record = run_output_from_dict({"conversationId": 7, "turns": [{"turnNumber": "2"}, "junk"]})
    assert record.conversation_id == "7"
    assert (record.em_model, record.mode, record.api_cost, record.prompt_version) == (None,) * 4
    assert record.parse_failures == {} and record.post_conversation is None
    (turn,) = record.turns
    assert turn.turn_number == 2
    assert turn.em_emotion_tags is None and turn.em_binary_om_assessment is None
    assert turn.em_binary_om_assessment_hp is None and turn.em_draft_judge_scores is None
    assert run_output_from_dict(None) == RunOutput(conversation_id=None)


def test_lenient_reading_of_variant_values():
    record = run_output_from_dict(
        {
            "conversationId": "c",
            "turns": [
                {
                    "turnNumber": 1,
                    "em_emotion_tags": [
                        "Upset",
                        {"emotion": "Afraid", "intensity": "moderate"},
                        {"x": 1},
                    ],
                    "em_binary_om_assessment": {"B1": True, "B2": False, "B3": None},
                    "em_pairwise_selections": ["A", "B"],
                    "em_draft_judge_scores": {"overall_score": "6", "tone_match": "high"},
                }
            ],
            "post_conversation": {
                "predicted_post_panas": {"responses": {"Proud": 4, "Upset": "x"}},
                "predicted_conversation_wide": {"Q1": "vent", "Q2": "clear", "Q3": "mixed"},
            },
        }
    )
    turn = record.turns[0]
    assert turn.em_emotion_tags == (MoodTag("Upset", None), MoodTag("Afraid", 4))
    assert turn.em_binary_om_assessment == {"B1": "yes", "B2": "no", "B3": None}
    assert turn.em_pairwise_selections == {"0": "A", "1": "B"}
    assert (
        turn.em_draft_judge_scores.overall_score == 6.0
        and turn.em_draft_judge_scores.tone_match is None
    )
    post = record.post_conversation
    assert post.predicted_post_panas.items == {"Proud": 4}
    wide = post.predicted_conversation_wide
    assert (wide.q1_looking_for, wide.q2_emotion_clarity, wide.q3_model_fit) == (
        ("vent",),
        "clear",
        "mixed",
    )


def test_predicted_panas_omits_absent_totals():
    record = run_output_from_dict(
        {
            "conversationId": "c",
            "post_conversation": {"predicted_post_panas": {"items": {"Proud": 3}}},
        }
    )
    assert run_output_to_dict(record)["post_conversation"]["predicted_post_panas"] == {
        "items": {"Proud": 3}
    }


def test_built_record_serialises_every_known_key():
    record = RunOutput(conversation_id="c", turns=(TurnOutput(turn_number=1),))
    data = run_output_to_dict(record)
    assert list(data)[:7] == [
        "conversationId",
        "source_file",
        "em_model",
        "run_timestamp",
        "mode",
        "api_cost",
        "duration_seconds",
    ]
    assert data["turns"][0]["em_binary_om_assessment"] is None
    assert len(data["turns"][0]) == 15


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("openai/gpt-4o", "run_12__openai--gpt-4o__default.json"),
        ("meta-llama/Llama 3.1:70b", "run_12__meta-llama--Llama_3.1_70b__default.json"),
        ("../../etc", "run_12__--..--etc__default.json"),
        ("", "run_12_____default.json"),
    ],
)
def test_run_output_filename_is_filesystem_safe(model, expected):
    name = run_output_filename("12", model, "default")
    assert name == expected
    assert "/" not in name and "\\" not in name and ":" not in name and " " not in name


def test_read_run_output_file(tmp_path):
    path = tmp_path / run_output_filename("1042", "openai/gpt-4o", "verbose")
    path.write_text(json.dumps(CANONICAL, ensure_ascii=False), encoding="utf-8")
    assert run_output_to_dict(read_run_output_file(path)) == CANONICAL
