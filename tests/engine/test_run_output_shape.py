"""The run output the engine writes has the reference's section 6 shape (so any tool can
re-score it), plus our additions after the reference keys."""

import json

from attune_collect.llm import EndpointConfig
from attunebench.batch import plan_units, run_batch
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.prompts import load_prompt_set
from attunebench.release import load_conversations
from attunebench.run_output import dumps_run_output, loads_run_output
from attunebench.runner import RunOptions
from tests.engine.conftest import FakeGateway

RUN_KEYS = [
    "conversationId",
    "source_file",
    "em_model",
    "run_timestamp",
    "mode",
    "api_cost",
    "duration_seconds",
    "prompt_version",
    "parse_failures",
    "turns",
    "post_conversation",
]
TURN_KEYS = [
    "turnNumber",
    "em_emotion_tags",
    "em_drafted_response",
    "response_reasoning",
    "emotion_reasoning",
    "pairwise_assignment",
    "em_binary_om_assessment",
    "em_binary_human_prediction",
    "em_binary_om_assessment_hp",
    "em_binary_human_prediction_hp",
    "em_pairwise_selections",
    "em_draft_judge_scores",
    "em_draft_judge_scores_by_model",
    "em_draft_binary_assessment",
    "em_draft_binary_assessment_by_model",
]
POST_KEYS = [
    "panas_strategy",
    "pre_panas_shown",
    "predicted_post_panas",
    "predicted_panas_delta",
    "predicted_conversation_wide",
]
EXTRA_KEYS = ["answer_repairs", "call_errors", "engine", "parse_failure_details", "usage"]


async def test_one_file_per_unit_in_the_section_6_shape(release_dir, tmp_path):
    conversations = load_conversations(release_dir, "sample2")
    judges = (EndpointConfig("fake/judge-a"), EndpointConfig("fake/judge-b"))
    units = plan_units(conversations, [EndpointConfig("openai/gpt-x")], ["verbose"], tmp_path)
    await run_batch(
        units, RunOptions(judges=judges), CallExecutor(MemoryCallCache(), FakeGateway())
    )

    assert [u.path.name for u in units] == [
        f"run_{c.conversation.conversation_id}__openai--gpt-x__verbose.json" for c in conversations
    ]
    data = json.loads(units[0].path.read_text())
    assert list(data) == RUN_KEYS + EXTRA_KEYS
    assert data["conversationId"] == conversations[0].conversation.conversation_id
    assert data["source_file"] == conversations[0].source_file
    assert (data["em_model"], data["mode"]) == ("openai/gpt-x", "verbose")
    assert data["prompt_version"] == load_prompt_set().version_id
    assert data["run_timestamp"].endswith("Z") and data["api_cost"] > 0
    assert set(data["parse_failures"]) == {
        "draft",
        "draft_judge",
        "om_review",
        "hp_review",
        "pairwise",
        "post_conversation",
        "reply_judge",
        "draft_judge_turns",  # judged turns, and those a judge left without a judged score
    }
    assert data["parse_failures"]["draft_judge_turns"]["failures"] == 0

    turn = data["turns"][0]
    assert list(turn)[: len(TURN_KEYS)] == TURN_KEYS
    assert isinstance(turn["em_drafted_response"], str) and isinstance(
        turn["response_reasoning"], str
    )
    assert all(set(tag) == {"emotion", "intensity"} for tag in turn["em_emotion_tags"])
    assert set(turn["em_binary_om_assessment"].values()) <= {"yes", "no", "na"}
    assert set(turn["em_pairwise_selections"].values()) <= {"A", "B"}
    assert set(turn["pairwise_assignment"]) == set(turn["em_pairwise_selections"])
    assert set(turn["em_draft_judge_scores"]) == {
        "overall_score",
        "emotional_appropriateness",
        "helpfulness",
        "tone_match",
    }
    assert set(turn["em_draft_judge_scores_by_model"]) == {"fake/judge-a", "fake/judge-b"}
    assert set(turn["em_draft_binary_assessment"]) == set(turn["em_binary_om_assessment"])
    # Our addition after the reference keys: each judge on the original and the edited reply.
    judged = turn["judge_reply_assessment_by_model"]
    assert list(turn).index("judge_reply_assessment_by_model") == len(TURN_KEYS)
    assert set(judged) == {"fake/judge-a", "fake/judge-b"}
    assert set(judged["fake/judge-a"]) == {"original", "human_edited"}
    assert set(judged["fake/judge-a"]["original"]) == set(turn["em_binary_om_assessment"])

    post = data["post_conversation"]
    assert list(post)[: len(POST_KEYS)] == POST_KEYS
    assert post["panas_strategy"] == "absolute" and post["predicted_panas_delta"] is None
    assert len(post["predicted_post_panas"]["items"]) == 20
    wide = post["predicted_conversation_wide"]
    assert set(wide) == {
        "q1_lookingFor",
        "q2_emotionClarity",
        "q3_modelFit",
        "q3_followUp_whatFeltOff",
        "fourBranchScores",
    }

    # The canonical writer reads it back to the same bytes.
    text = units[0].path.read_text()
    assert dumps_run_output(loads_run_output(text)) == text
