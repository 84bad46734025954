"""Composite, axes, aggregation with standard errors, and the exports (spec sections 4, 6),
on a small conversation whose every number is worked out by hand below."""

import dataclasses
import json
import math

import pytest

from attunebench.records import (
    BinaryJudgement,
    Conversation,
    ConversationWide,
    FourBranchScores,
    MoodTag,
    PairwiseComparison,
    Panas,
    Turn,
    TurnAnnotations,
)
from attunebench.run_output import (
    PostConversationOutput,
    PredictedConversationWide,
    PredictedPanas,
    RunOutput,
    TurnOutput,
)
from attunebench.scoring import (
    METRIC_NAMES,
    aggregate,
    composite,
    per_conversation_frame,
    per_turn_frame,
    score_conversation,
    scores_to_json,
    summarise,
)


def conversation(conversation_id: str = "c1") -> Conversation:
    return Conversation(
        conversation_id=conversation_id,
        pre_panas=Panas(items={}, total_positive=30, total_negative=20),
        post_panas=Panas(items={}, total_positive=40, total_negative=20),
        conversation_wide=ConversationWide(
            looking_for=("vent", "calm"),
            emotion_clarity="clear",
            model_fit="mixed",
            what_felt_off=("too long",),
            four_branch=FourBranchScores(perceiving=5),
        ),
        turns=(
            Turn(
                1,
                "m1",
                "r1",
                mood_tags=(MoodTag("Upset", 5),),
                annotations=TurnAnnotations(
                    binary_judgements=(
                        BinaryJudgement("B1", observed="yes", preferred="yes"),
                        BinaryJudgement("B2", observed="no", preferred="yes"),
                    ),
                    pairwise_comparisons=(PairwiseComparison("general", "original", "human", "B"),),
                ),
            ),
            Turn(
                2,
                "m2",
                "r2",
                annotations=TurnAnnotations(
                    binary_judgements=(BinaryJudgement("B1", observed="yes"),)
                ),
            ),
        ),
    )


def run(conversation_id: str = "c1", *, mode: str = "default", parse_failures=None) -> RunOutput:
    return RunOutput(
        conversation_id=conversation_id,
        em_model="provider/model",
        mode=mode,
        parse_failures=parse_failures or {},
        turns=(
            TurnOutput(
                turn_number=1,
                em_emotion_tags=(MoodTag("upset", 4), MoodTag("Nervous", 3)),
                em_binary_om_assessment={"B1": "yes", "B2": "yes"},
                em_binary_human_prediction={"B1": "yes", "B2": "no"},
                em_pairwise_selections={"0": "B"},
            ),
            TurnOutput(turn_number=2, em_emotion_tags=(), em_binary_om_assessment={"B1": "yes"}),
        ),
        post_conversation=PostConversationOutput(
            panas_strategy="absolute",
            predicted_post_panas=PredictedPanas(total_positive=38, total_negative=22),
            predicted_conversation_wide=PredictedConversationWide(
                q1_looking_for=("vent",),
                q2_emotion_clarity="clear",
                q3_model_fit="mostly well matched",
                q3_follow_up_what_felt_off=("too long",),
                four_branch_scores={"perceiving": 6},
            ),
        ),
    )


def perfect_run(conversation_id: str) -> RunOutput:
    return RunOutput(
        conversation_id=conversation_id,
        em_model="provider/model",
        mode="default",
        turns=(
            TurnOutput(
                turn_number=1,
                em_emotion_tags=(MoodTag("Upset", 5),),
                em_binary_om_assessment={"B1": "yes", "B2": "no"},
                em_binary_human_prediction={"B1": "yes", "B2": "yes"},
                em_pairwise_selections={"0": "B"},
            ),
            TurnOutput(
                turn_number=2,
                em_emotion_tags=(),
                em_binary_om_assessment={"B1": "yes"},
                em_binary_human_prediction={"B1": "yes"},
            ),
        ),
        post_conversation=PostConversationOutput(
            panas_strategy="absolute",
            predicted_post_panas=PredictedPanas(total_positive=40, total_negative=20),
            predicted_conversation_wide=PredictedConversationWide(
                q1_looking_for=("calm", "vent"),
                q2_emotion_clarity="clear",
                q3_model_fit="mixed",
                q3_follow_up_what_felt_off=("too long",),
                four_branch_scores={"perceiving": 5},
            ),
        ),
    )


def test_composite_of_a_hand_built_conversation():
    scores = score_conversation(conversation(), run())
    # Turn 1: F1 {upset} vs {upset, nervous} = 2*1/(1+2) = 2/3; VA: upset-upset 1 x coverage 1/2
    #         OM: B1 yes/yes right, B2 no/yes wrong -> 0.5; human: B1 yes/yes right,
    #         B2 yes/no wrong -> 0.5; pairwise B == B -> 1
    # Turn 2: F1 and VA both empty -> 1; OM B1 yes/yes -> 1; human: preferred blank -> observed
    #         yes, prediction missing = no -> 0; no comparisons -> 1
    assert scores.avg_emotion_f1 == pytest.approx(5 / 6)  # (2/3 + 1) / 2
    assert scores.avg_emotion_va_score == pytest.approx(0.75)  # (0.5 + 1) / 2
    assert scores.avg_binary_om_accuracy == pytest.approx(0.75)  # (0.5 + 1) / 2
    assert scores.avg_binary_human_accuracy == pytest.approx(0.25)  # (0.5 + 0) / 2
    assert scores.avg_pairwise_accuracy == 1.0
    # ET = 0.5 * 5/6 + 0.5 * 0.75 = 0.791667
    assert scores.emotion_tracking == pytest.approx(0.5 * 5 / 6 + 0.375)
    # EQ = 0.5 * (0.75 + 0.25) / 2 + 0.5 * 1 = 0.75
    assert scores.evaluation_quality == pytest.approx(0.75)
    # PANAS: PA adj = (58/60 - 50/60) / (10/60) = 0.8, NA post == pre -> undefined
    #        -> PANASscore = (0.8 + 1) / 2 = 0.9
    assert scores.panas_score == pytest.approx(0.9)
    assert scores.panas_mae == pytest.approx(2.0)  # (|40-38| + |20-22|) / 2
    # Q1 {vent, calm} vs {vent} = 2/3; Q2 match 1; Q3 mismatch 0; follow-up exact 1
    assert (scores.q1_f1, scores.q2_match, scores.q3_match, scores.followup_f1) == pytest.approx(
        (2 / 3, 1.0, 0.0, 1.0)
    )
    # four-branch: |5 - 6| = 1 -> 1 - 1/6 = 5/6
    assert scores.four_branch_score == pytest.approx(5 / 6)
    # HC = 0.4 * 0.9 + 0.3 * mean(2/3, 1, 0, 1) + 0.3 * 5/6 = 0.36 + 0.3 * 2/3 + 0.25 = 0.81
    assert scores.holistic_comprehension == pytest.approx(0.81)
    # composite = 100 * (0.24 * 0.791667 + 0.49 * 0.75 + 0.27 * 0.81)
    #           = 100 * (0.19 + 0.3675 + 0.2187) = 77.62
    assert scores.composite_score == 77.62
    # axes
    assert scores.emotion_recognition == pytest.approx(scores.emotion_tracking)
    assert scores.behaviour_classification == pytest.approx(0.75)
    assert scores.preference_prediction == pytest.approx(0.625)  # (0.25 + 1) / 2
    assert scores.judged_response_quality is None  # no judge in this run
    assert scores.outcome_prediction == pytest.approx(0.81)
    assert scores.n_turns_scored == 2


def test_perfect_run_scores_100():
    # Every per-turn metric 1; PANAS PA exact: (1 - 50/60) / (10/60) = 1 -> score 1;
    # Q1..follow-up 1; four-branch 1 -> ET = EQ = HC = 1 -> composite 100
    assert score_conversation(conversation("c2"), perfect_run("c2")).composite_score == 100.0


def test_composite_is_rounded_to_two_decimals():
    # 100 * (1/3) * (0.24 + 0.49 + 0.27) = 33.333... -> 33.33
    assert composite(1 / 3, 1 / 3, 1 / 3) == 33.33


def test_composite_is_undefined_when_a_pillar_is():
    # Section 4 defines the composite from mean F1, VA, OM, human and pairwise accuracy over the
    # scored turns; with no scored turn those means do not exist, and the spec gives no value
    # for them. Counting them as 0 (the old rule: 100 * 0.27 * 0.5 = 13.5 here) would put a
    # number that is mostly missing data into the composite mean.
    assert composite(None, None, 0.5) is None
    assert composite(0.5, None, 0.5) is None and composite(None, 0.5, 0.5) is None


def test_empty_run_output_scores_defaults():
    scores = score_conversation(conversation(), RunOutput(conversation_id="c1"))
    assert scores.n_turns_scored == 0
    assert scores.avg_emotion_f1 is None and scores.emotion_tracking is None
    # HC: PANAS undefined -> 0.5; Q1 one empty -> 0; Q2, Q3 missing -> 0; follow-up -> 0;
    #     four-branch |5 - 4| = 1 -> 5/6. HC = 0.4*0.5 + 0.3*0 + 0.3*5/6 = 0.2 + 0.25 = 0.45
    assert scores.holistic_comprehension == pytest.approx(0.45)
    # ET and EQ are undefined (no scored turn), so the composite is too (was 100 * 0.27 * 0.45
    # = 12.15 when missing pillars counted 0); HC stays, it needs no turn.
    assert scores.composite_score is None
    assert scores.outcome_prediction == pytest.approx(0.45)


def test_an_undefined_composite_is_left_out_of_the_mean():
    conversations = {"c1": conversation("c1"), "c2": conversation("c2")}
    scores = [
        score_conversation(conversations["c1"], run("c1")),
        score_conversation(
            conversations["c2"],
            RunOutput(conversation_id="c2", em_model="provider/model", mode="default"),
        ),
    ]
    (summary,) = aggregate(scores)
    assert summary.metrics["composite_score"].mean == 77.62  # c1 alone, not (77.62 + 12.15) / 2
    assert summary.metrics["composite_score"].n == 1
    assert summary.metrics["outcome_prediction"].n == 2


def test_standard_error_by_hand():
    # values 0.5, 0.7, 0.9: mean 0.7; sample sd = sqrt((0.04 + 0 + 0.04) / 2) = 0.2;
    # SE = 0.2 / sqrt(3) = 0.1154701
    summary = summarise([0.5, 0.7, None, 0.9])
    assert summary.mean == pytest.approx(0.7)
    assert summary.standard_error == pytest.approx(0.2 / math.sqrt(3))
    assert summary.n == 3
    assert summarise([0.4]).standard_error is None  # n < 2
    assert summarise([None]).mean is None


def test_aggregate_per_model_and_mode():
    conversations = {"c1": conversation("c1"), "c2": conversation("c2")}
    scores = [
        score_conversation(
            conversations["c1"],
            run("c1", parse_failures={"om_review": {"calls": 2, "failures": 1}}),
        ),
        score_conversation(conversations["c2"], perfect_run("c2")),
        score_conversation(conversations["c1"], run("c1", mode="verbose")),
    ]
    default, verbose = aggregate(scores)
    assert (default.mode, verbose.mode) == ("default", "verbose")
    assert default.n_conversations == 2 and verbose.n_conversations == 1
    composite_summary = default.metrics["composite_score"]
    # composites 77.62 and 100: mean 88.81; sd = 22.38 / sqrt(2); SE = sd / sqrt(2) = 11.19
    assert composite_summary.mean == pytest.approx(88.81)
    assert composite_summary.standard_error == pytest.approx(11.19)
    assert verbose.metrics["composite_score"].standard_error is None
    # pooled OM confusion: run c1 (yes,yes) (no,yes) (yes,yes); perfect (yes,yes) (no,no) (yes,yes)
    assert (default.confusion["om"].tp, default.confusion["om"].fp, default.confusion["om"].tn) == (
        4,
        1,
        1,
    )
    # parse failures: 1 of 2 om_review calls (the perfect run recorded no calls)
    assert default.parse_failures == {"om_review": {"calls": 2, "failures": 1, "rate": 0.5}}
    assert default.metrics["avg_binary_om_accuracy_hp"].n == 0  # no HP review in these runs


def test_json_export_is_strict_json_with_metric_names():
    scores = [score_conversation(conversation(), run())]
    payload = scores_to_json(scores, aggregate(scores))
    text = json.dumps(payload, allow_nan=False)  # undefined values are null, never NaN
    assert set(payload) == {"conversations", "aggregates"}
    first = payload["conversations"][0]
    assert first["composite_score"] == 77.62 and first["avg_emotion_f1"] == pytest.approx(5 / 6)
    assert len(first["turns"]) == 2
    aggregate_row = payload["aggregates"][0]
    assert aggregate_row["composite_score"] == 77.62 and aggregate_row["composite_score_se"] is None
    assert all(name in aggregate_row for name in METRIC_NAMES)
    assert '"perspective_gap": null' in text


def test_frames_are_tidy():
    scores = [
        score_conversation(conversation(), run()),
        score_conversation(conversation("c2"), perfect_run("c2")),
    ]
    turns = per_turn_frame(scores)
    assert len(turns) == 4 and list(turns["turn_number"]) == [1, 2, 1, 2]
    assert turns.loc[0, "emotion_f1"] == pytest.approx(2 / 3)
    assert math.isnan(turns.loc[0, "draft_judge_score"])
    conversations = per_conversation_frame(scores)
    assert len(conversations) == 2
    assert list(conversations["composite_score"]) == [77.62, 100.0]
    assert conversations.loc[0, "om_tp"] == 2
    assert per_conversation_frame([]).empty and per_turn_frame([]).empty


def test_score_records_are_frozen():
    scores = score_conversation(conversation(), run())
    with pytest.raises(dataclasses.FrozenInstanceError):
        scores.composite_score = 0.0  # type: ignore[misc]
