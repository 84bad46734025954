"""Behaviour accuracy, applicability, confusion counts and the perspective gap (spec sections
3, 4 and 5), against values worked out by hand."""

import math

import pytest

from attunebench.records import BinaryJudgement, Conversation, Turn, TurnAnnotations
from attunebench.run_output import RunOutput, TurnOutput
from attunebench.scoring import (
    ConfusionCounts,
    ScoringOptions,
    behaviour_accuracy,
    behaviour_pairs,
    human_ground_truth,
    is_applicable,
    om_ground_truth,
    score_conversation,
)

COMPAT = ScoringOptions(compat=True)
ASKED_ONLY = ScoringOptions(asked_only=True)


def judgement(qid: str, observed=None, preferred=None, llm=None) -> BinaryJudgement:
    return BinaryJudgement(question_id=qid, llm_value=llm, observed=observed, preferred=preferred)


def turn(number: int, *judgements: BinaryJudgement) -> Turn:
    return Turn(
        number, "message", "reply", annotations=TurnAnnotations(binary_judgements=judgements)
    )


# --- applicability (section 3) and ground truth (section 4 edge rules) ------------------------


@pytest.mark.parametrize(
    ("observed", "preferred", "applicable"),
    [
        (None, None, True),  # both blank: asked, ground truth may come from llmValue
        ("yes", None, True),
        ("na", "no", True),  # yes/no to at least one
        ("na", "na", False),  # answered only na
        ("na", None, False),
        (None, "na", False),
    ],
)
def test_applicability(observed, preferred, applicable):
    assert is_applicable(judgement("B1", observed, preferred)) is applicable


def test_om_ground_truth_falls_back_to_llm_value_only_when_observed_is_blank():
    assert om_ground_truth(judgement("B1", observed="yes", llm="no")) == "yes"
    assert om_ground_truth(judgement("B1", observed=None, llm="no")) == "no"
    assert om_ground_truth(judgement("B1", observed="na", llm="yes")) == "na"  # not scored


def test_human_ground_truth_falls_back_to_observed_only_when_preferred_is_none():
    assert human_ground_truth(judgement("B1", observed="yes", preferred="no")) == "no"
    assert human_ground_truth(judgement("B1", observed="yes", preferred=None)) == "yes"
    assert human_ground_truth(judgement("B1", observed="yes", preferred="na")) == "na"  # not scored


# --- per-turn accuracy ------------------------------------------------------------------------


def test_om_accuracy_by_hand():
    judgements = (
        judgement("B1", observed="yes"),  # truth yes, predicted yes -> right
        judgement("B2", observed="no"),  # truth no, predicted yes -> wrong
        judgement(
            "B3", observed=None, llm="yes"
        ),  # truth yes (llmValue), predicted na = no -> wrong
        judgement("B4", observed="na", llm="yes", preferred="yes"),  # observed na: not scored
    )
    predictions = {"B1": "yes", "B2": "yes", "B3": "na", "B4": "yes"}
    # 1 right of 3 scored
    assert behaviour_accuracy(judgements, predictions, "om") == pytest.approx(1 / 3)


def test_human_accuracy_by_hand_na_preference_is_not_scored():
    judgements = (
        judgement("B1", observed="yes", preferred="no"),  # truth no, predicted no -> right
        judgement(
            "B2", observed="no", preferred=None
        ),  # truth no (observed), missing = no -> right
        judgement("B3", observed="yes", preferred="na"),  # na preference: not scored
    )
    predictions = {"B1": "no", "B3": "yes"}
    # 2 right of 2 scored
    assert behaviour_accuracy(judgements, predictions, "human") == 1.0


def test_missing_prediction_map_counts_every_answer_as_no():
    judgements = (judgement("B1", observed="yes"), judgement("B2", observed="no"))
    # truths yes, no; predictions no, no -> 1 of 2
    assert behaviour_accuracy(judgements, None, "om") == pytest.approx(0.5)
    assert behaviour_accuracy(judgements, {"B1": "maybe"}, "om") == pytest.approx(0.5)


def test_prediction_case_is_ignored():
    assert behaviour_accuracy((judgement("B1", observed="yes"),), {"B1": " YES "}, "om") == 1.0


def test_turn_without_judgements_scores_one_in_both_profiles():
    assert behaviour_accuracy((), {}, "om") == 1.0
    assert behaviour_accuracy((), {}, "human", COMPAT) == 1.0


def test_na_only_turn_scores_one_by_default_and_zero_in_compat():
    judgements = (judgement("B1", "na", "na"), judgement("B2", None, "na"))
    assert behaviour_accuracy(judgements, {"B1": "yes"}, "om") == 1.0
    assert behaviour_accuracy(judgements, {"B1": "yes"}, "human") == 1.0
    assert behaviour_accuracy(judgements, {"B1": "yes"}, "om", COMPAT) == 0.0
    assert behaviour_accuracy(judgements, {"B1": "yes"}, "human", COMPAT) == 0.0


def test_blank_only_turn_without_llm_value_scores_one_by_default_and_zero_in_compat():
    judgements = (judgement("B1"),)  # applicable, but no ground truth at all
    assert behaviour_accuracy(judgements, {}, "om") == 1.0
    assert behaviour_accuracy(judgements, {}, "om", COMPAT) == 0.0


def test_a_question_that_was_not_asked_is_still_scored_as_a_missing_no():
    # The case (section 4): observed blank, preferred na, llmValue no. The question
    # was not asked (answered only na), yet the OM ground truth is "no" (llmValue fallback),
    # and the missing prediction counts as "no": a right answer. The human ground truth is
    # "na" (preferred na, no fallback), so that judgement is not scored there.
    judgements = (judgement("B1", observed=None, preferred="na", llm="no"),)
    assert not is_applicable(judgements[0])
    assert behaviour_pairs(judgements, {}, "om") == [("no", "no")]
    assert behaviour_accuracy(judgements, {}, "om") == 1.0
    assert behaviour_pairs(judgements, {}, "human") == []


def test_reference_and_asked_only_accuracy_of_one_turn_by_hand():
    judgements = (
        judgement("B1", observed="yes"),  # asked; truth yes, predicted yes -> right
        judgement("B2", observed=None, preferred="na", llm="no"),  # not asked; no = no -> right
        judgement("B3", observed=None, preferred="na", llm="yes"),  # not asked; yes vs no -> wrong
    )
    predictions = {"B1": "yes"}  # the runner asks only B1
    # Reference (default): 2 right of 3. Asked-only variant: B1 alone, 1 of 1.
    assert behaviour_accuracy(judgements, predictions, "om") == pytest.approx(2 / 3)
    assert behaviour_accuracy(judgements, predictions, "om", ASKED_ONLY) == 1.0
    # Confusion counts follow the same rule: (yes,yes) (no,no) (yes,no).
    assert ConfusionCounts.from_pairs(behaviour_pairs(judgements, predictions, "om")) == (
        ConfusionCounts(tp=1, tn=1, fp=0, fn=1)
    )


def test_asked_only_turn_with_nothing_asked_follows_the_all_na_rule():
    judgements = (judgement("B1", observed=None, preferred="na", llm="yes"),)
    assert behaviour_accuracy(judgements, {}, "om") == 0.0  # reference: scored, wrong
    assert behaviour_accuracy(judgements, {}, "om", ASKED_ONLY) == 1.0  # nothing asked
    both = ScoringOptions(compat=True, asked_only=True)
    assert behaviour_accuracy(judgements, {}, "om", both) == 0.0


# --- confusion counts -------------------------------------------------------------------------


def test_confusion_counts_by_hand():
    pairs = [("yes", "yes"), ("yes", "no"), ("no", "yes"), ("no", "no"), ("no", "no")]
    counts = ConfusionCounts.from_pairs(pairs)
    assert (counts.tp, counts.fn, counts.fp, counts.tn) == (1, 1, 1, 2)
    assert counts.accuracy == pytest.approx(3 / 5)
    assert counts.precision == pytest.approx(1 / 2)  # 1 / (1 + 1)
    assert counts.recall == pytest.approx(1 / 2)  # 1 / (1 + 1)
    assert counts.f1 == pytest.approx(1 / 2)
    # MCC = (1*2 - 1*1) / sqrt((1+1)(1+1)(2+1)(2+1)) = 1 / sqrt(36) = 1/6
    assert counts.mcc == pytest.approx(1 / 6)


def test_confusion_counts_undefined_rates():
    never_yes = ConfusionCounts(tn=3, fn=1)
    assert never_yes.precision is None  # nothing predicted yes
    assert never_yes.recall == 0.0
    assert never_yes.f1 is None
    assert never_yes.mcc == 0.0  # empty marginal: the usual convention
    empty = ConfusionCounts()
    assert empty.accuracy is None and empty.mcc is None
    assert ConfusionCounts(1, 2, 3, 4) + ConfusionCounts(4, 3, 2, 1) == ConfusionCounts(5, 5, 5, 5)


# --- conversation level: pooling, HP-worded call, perspective gap, skipped turns ---------------


def conversation() -> Conversation:
    return Conversation(
        conversation_id="c1",
        turns=(
            turn(1, judgement("B1", "yes", "yes"), judgement("B2", "no", "yes")),
            turn(2, judgement("B1", "yes", None)),
        ),
    )


def test_conversation_pools_confusion_and_computes_the_perspective_gap():
    run = RunOutput(
        conversation_id="c1",
        em_model="m",
        mode="default",
        turns=(
            TurnOutput(
                turn_number=1,
                em_binary_om_assessment={"B1": "yes", "B2": "yes"},  # right, wrong -> 0.5
                em_binary_human_prediction={"B1": "yes", "B2": "yes"},  # right, right -> 1.0
                em_binary_om_assessment_hp={"B1": "yes", "B2": "no"},  # right, right -> 1.0
                em_binary_human_prediction_hp={"B1": "no", "B2": "yes"},  # wrong, right -> 0.5
            ),
            TurnOutput(
                turn_number=2,
                em_binary_om_assessment={"B1": "yes"},  # right -> 1.0
                em_binary_human_prediction={},  # truth yes (observed), missing = no -> 0.0
                em_binary_om_assessment_hp={"B1": "yes"},  # right -> 1.0
                em_binary_human_prediction_hp={"B1": "yes"},  # right -> 1.0
            ),
        ),
    )
    scores = score_conversation(conversation(), run)
    assert scores.avg_binary_om_accuracy == pytest.approx(0.75)  # (0.5 + 1) / 2
    assert scores.avg_binary_human_accuracy == pytest.approx(0.5)  # (1 + 0) / 2
    assert scores.avg_binary_om_accuracy_hp == pytest.approx(1.0)  # (1 + 1) / 2
    assert scores.avg_binary_human_accuracy_hp == pytest.approx(0.75)  # (0.5 + 1) / 2
    assert scores.perspective_gap == pytest.approx(-0.25)  # in-thread 0.5 - HP-worded 0.75
    # OM pooled: (yes,yes) (no,yes) (yes,yes) -> TP 2, FP 1
    assert scores.confusion["om"] == ConfusionCounts(tp=2, tn=0, fp=1, fn=0)
    # human pooled: (yes,yes) (yes,yes) (yes,no) -> TP 2, FN 1
    assert scores.confusion["human"] == ConfusionCounts(tp=2, tn=0, fp=0, fn=1)
    assert scores.confusion["human_hp"] == ConfusionCounts(tp=2, tn=0, fp=0, fn=1)
    assert scores.confusion["human"].recall == pytest.approx(2 / 3)


def test_run_without_hp_review_leaves_hp_metrics_undefined():
    run = RunOutput(
        conversation_id="c1",
        turns=(
            TurnOutput(turn_number=1, em_binary_om_assessment={"B1": "yes", "B2": "no"}),
            TurnOutput(turn_number=2, em_binary_om_assessment={"B1": "yes"}),
        ),
    )
    scores = score_conversation(conversation(), run)
    assert scores.avg_binary_om_accuracy == 1.0
    assert scores.avg_binary_om_accuracy_hp is None
    assert scores.avg_binary_human_accuracy_hp is None
    assert scores.perspective_gap is None
    assert "om_hp" not in scores.confusion


def test_turns_missing_from_the_run_are_skipped():
    run = RunOutput(
        conversation_id="c1",
        turns=(TurnOutput(turn_number=2, em_binary_om_assessment={"B1": "no"}),),
    )
    scores = score_conversation(conversation(), run)
    assert (scores.n_turns, scores.n_turns_scored) == (2, 1)
    assert [t.turn_number for t in scores.turns] == [2]
    assert scores.avg_binary_om_accuracy == 0.0  # only turn 2: truth yes, predicted no


def test_compat_profile_changes_the_conversation_mean():
    convo = Conversation(
        conversation_id="c2",
        turns=(turn(1, judgement("B1", "yes")), turn(2, judgement("B1", "na", "na"))),
    )
    run = RunOutput(
        conversation_id="c2",
        turns=(
            TurnOutput(turn_number=1, em_binary_om_assessment={"B1": "yes"}),
            TurnOutput(turn_number=2, em_binary_om_assessment={}),
        ),
    )
    # default: (1 + 1) / 2 = 1.0; compat: (1 + 0) / 2 = 0.5
    assert score_conversation(convo, run).avg_binary_om_accuracy == 1.0
    assert score_conversation(convo, run, COMPAT).avg_binary_om_accuracy == 0.5


def test_run_for_another_conversation_is_refused():
    with pytest.raises(ValueError, match="not 'c1'"):
        score_conversation(conversation(), RunOutput(conversation_id="other"))


def test_mcc_is_finite_for_pooled_counts():
    assert math.isfinite(ConfusionCounts(tp=5, tn=5, fp=0, fn=0).mcc)
    assert ConfusionCounts(tp=5, tn=5, fp=0, fn=0).mcc == 1.0
