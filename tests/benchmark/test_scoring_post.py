"""Post-conversation metrics (spec section 4 with its edge rules, section 5), by hand."""

import pytest

from attunebench.records import FourBranchScores, Panas
from attunebench.run_output import PostConversationOutput, PredictedPanas
from attunebench.scoring import (
    exact_match,
    four_branch_score,
    fuzzy_match_credit,
    fuzzy_set_f1,
    panas_adjusted_score,
    resolve_predicted_post_panas,
    score_panas,
    set_f1,
    token_jaccard,
)
from attunebench.vocabulary import PANAS_NEGATIVE, PANAS_POSITIVE


def panas(positive: int, negative: int, items: dict[str, int] | None = None) -> Panas:
    return Panas(items=items or {}, total_positive=positive, total_negative=negative)


def absolute(positive=None, negative=None, items=None) -> PostConversationOutput:
    prediction = PredictedPanas(total_positive=positive, total_negative=negative, items=items)
    return PostConversationOutput(panas_strategy="absolute", predicted_post_panas=prediction)


def delta(strategy="delta", positive=None, negative=None, items=None) -> PostConversationOutput:
    change = PredictedPanas(total_positive=positive, total_negative=negative, items=items)
    return PostConversationOutput(panas_strategy=strategy, predicted_panas_delta=change)


# --- PANAS baseline-adjusted score ------------------------------------------------------------


def test_adjusted_score_by_hand():
    # pre 30, post 40, pred 38: naive = 1 - 10/60 = 50/60; raw = 1 - 2/60 = 58/60
    # adj = (58/60 - 50/60) / (1 - 50/60) = (8/60) / (10/60) = 0.8
    assert panas_adjusted_score(30, 40, 38) == pytest.approx(0.8)


def test_adjusted_score_of_the_no_change_guess_is_zero():
    assert panas_adjusted_score(30, 40, 30) == pytest.approx(0.0)  # raw == naive


def test_adjusted_score_is_clipped_to_minus_one():
    # pred 60: raw = 1 - 20/60 = 40/60 -> (40 - 50)/10 = -1.0 exactly
    assert panas_adjusted_score(30, 40, 60) == pytest.approx(-1.0)
    # pred 70: raw = 1 - 30/60 = 30/60 -> (30 - 50)/10 = -2.0, clipped to -1
    assert panas_adjusted_score(30, 40, 70) == -1.0


def test_raw_is_floored_at_zero():
    # pre 10, post 70 -> naive = 1 - 60/60 = 0. pred -5 -> raw = 1 - 75/60 = -0.25, floored 0.
    # adj = (0 - 0) / (1 - 0) = 0  (without the floor it would be -0.25)
    assert panas_adjusted_score(10, 70, -5) == pytest.approx(0.0)


def test_naive_is_floored_at_zero():
    # pre -5, post 70 -> naive = 1 - 75/60 = -0.25, floored 0. pred 55 -> raw = 1 - 15/60 = 0.75
    # adj = (0.75 - 0) / (1 - 0) = 0.75  (without the floor: (0.75 + 0.25) / 1.25 = 0.8)
    assert panas_adjusted_score(-5, 70, 55) == pytest.approx(0.75)


def test_adjusted_score_is_undefined_when_post_equals_pre_or_prediction_missing():
    assert panas_adjusted_score(30, 30, 35) is None
    assert panas_adjusted_score(30, 40, None) is None


def test_score_panas_by_hand():
    # PA: pre 30, post 40, pred 38 -> 0.8. NA: pre 20 == post 20 -> undefined.
    # adjusted = 0.8, PANASscore = (0.8 + 1) / 2 = 0.9, MAE = (|40-38| + |20-25|) / 2 = 3.5
    result = score_panas(panas(30, 20), panas(40, 20), absolute(38, 25))
    assert result.positive_adjusted == pytest.approx(0.8)
    assert result.negative_adjusted is None
    assert result.adjusted == pytest.approx(0.8)
    assert result.score == pytest.approx(0.9)
    assert result.mae == pytest.approx(3.5)


def test_missing_predicted_total_is_40_in_the_mae_but_undefined_in_the_adjusted_score():
    # PA: pre 30, post 40, pred 38 -> 0.8. NA: pre 20, post 30, pred missing -> undefined.
    # adjusted = 0.8 (the only defined one) -> score 0.9; MAE = (2 + |30 - 40|) / 2 = 6
    result = score_panas(panas(30, 20), panas(40, 30), absolute(positive=38))
    assert result.predicted_negative is None
    assert result.adjusted == pytest.approx(0.8)
    assert result.score == pytest.approx(0.9)
    assert result.mae == pytest.approx(6.0)


def test_undefined_adjusted_score_gives_panas_score_one_half():
    # post == pre on both totals
    assert score_panas(panas(30, 20), panas(30, 20), absolute(35, 25)).score == 0.5
    # no post-conversation output at all: MAE = (|40-40| + |30-40|) / 2 = 5
    missing = score_panas(panas(30, 20), panas(40, 30), None)
    assert (missing.adjusted, missing.score, missing.mae) == (None, 0.5, 5.0)


def test_totals_are_derived_from_predicted_items_when_absent():
    # 10 positive items at 3 -> 30; 5 negative items at 2 -> 10 (the present ones, as the reader)
    items = {name: 3 for name in PANAS_POSITIVE} | {name: 2 for name in PANAS_NEGATIVE[:5]}
    resolved = resolve_predicted_post_panas(absolute(items=items), None)
    assert (resolved.total_positive, resolved.total_negative) == (30, 10)
    # A given total wins over the items; item names are matched case-insensitively.
    resolved = resolve_predicted_post_panas(absolute(positive=44, items={"proud": 7}), None)
    assert (resolved.total_positive, resolved.total_negative) == (44, None)


def test_delta_strategy_converts_item_changes_from_the_pre_values():
    pre_items = {name: 3 for name in PANAS_POSITIVE} | {name: 2 for name in PANAS_NEGATIVE}
    pre = panas(30, 20, pre_items)
    post = panas(32, 19)
    prediction = delta(items={"Proud": 2, "upset": -1})
    resolved = resolve_predicted_post_panas(prediction, pre)
    # PA = 30 + 2 = 32, NA = 20 - 1 = 19; items: Proud 3 + 2 = 5, Upset 2 - 1 = 1
    assert (resolved.total_positive, resolved.total_negative) == (32, 19)
    assert (
        resolved.items["Proud"] == 5
        and resolved.items["Upset"] == 1
        and resolved.items["Alert"] == 3
    )
    # Both exact: PA naive = 1 - 2/60, raw = 1 -> adj = (2/60) / (2/60) = 1; NA likewise -> score 1
    assert score_panas(pre, post, prediction).score == pytest.approx(1.0)


def test_blind_delta_and_total_changes():
    pre = panas(30, 20)
    resolved = resolve_predicted_post_panas(delta("blind_delta", positive=-5, negative=3), pre)
    assert (resolved.total_positive, resolved.total_negative) == (25, 23)  # 30 - 5, 20 + 3


def test_delta_totals_are_clamped_and_need_the_pre_scores():
    resolved = resolve_predicted_post_panas(delta(positive=5, negative=-15), panas(68, 20))
    assert (resolved.total_positive, resolved.total_negative) == (70, 10)  # 73 -> 70, 5 -> 10
    assert resolve_predicted_post_panas(delta(positive=5), None) is None
    # no change predicted for a polarity -> that total is missing
    assert resolve_predicted_post_panas(delta(positive=5), panas(30, 20)).total_negative is None


# --- Q1, Q2, Q3, follow-up ----------------------------------------------------------------------


def test_q1_set_f1():
    assert set_f1([], []) == 1.0
    assert set_f1(["vent"], []) == 0.0
    assert set_f1([], ["vent"]) == 0.0
    # {vent, calm} vs {vent, information}: 2*1 / (2 + 2) = 0.5
    assert set_f1(["vent", "calm"], ["Vent", "information"]) == pytest.approx(0.5)


def test_q2_q3_exact_match():
    assert exact_match("clear and explicit", "Clear  and explicit ") == 1.0
    assert exact_match("clear and explicit", "mixed or conflicted") == 0.0
    assert exact_match("clear and explicit", None) == 0.0
    assert exact_match(None, "clear and explicit") is None  # participant left it blank


def test_token_jaccard():
    # {too, long} vs {it, was, too, long}: 2 / 4
    assert token_jaccard("too long", "It was too LONG") == pytest.approx(0.5)
    assert token_jaccard("", "") == 0.0


def test_fuzzy_credit_threshold():
    # {a..g} vs {a, b, c, h, i, j}: 3 shared / 10 in the union = 0.3 -> counts (>= 0.3)
    assert fuzzy_match_credit("a b c d e f g", "a b c h i j") == pytest.approx(0.3)
    # 1 shared / 8 = 0.125 < 0.3 -> no credit
    assert fuzzy_match_credit("the reply was far too long for me", "long") == 0.0
    assert fuzzy_match_credit("Too  long", "too long") == 1.0  # exact after normalising


def test_followup_fuzzy_f1_by_hand():
    truth = ["it was too long", "felt cold"]
    prediction = ["too long", "felt cold", "pushy"]
    # credits: (it was too long, too long) = 2/4 = 0.5; (felt cold, felt cold) = 1; pushy: 0
    # C = 1.5 -> F1 = 2 * 1.5 / (2 + 3) = 0.6
    assert fuzzy_set_f1(truth, prediction) == pytest.approx(0.6)


def test_followup_pairs_one_to_one():
    # Both predictions resemble the single truth (1 and 2/3) but only one may be paired:
    # C = 1 -> F1 = 2 * 1 / (1 + 2) = 2/3
    assert fuzzy_set_f1(["too long"], ["too long", "too long please"]) == pytest.approx(2 / 3)


def test_followup_edge_cases():
    assert fuzzy_set_f1([], []) == 1.0
    assert fuzzy_set_f1([], None) == 1.0
    assert fuzzy_set_f1(["too long"], []) == 0.0
    assert fuzzy_set_f1([], ["too long"]) == 0.0
    assert fuzzy_set_f1(["  "], []) == 1.0  # blank items are ignored
    assert fuzzy_set_f1(["the reply was far too long for me"], ["long"]) == 0.0


# --- four-branch --------------------------------------------------------------------------------


def test_four_branch_by_hand():
    truth = FourBranchScores(perceiving=5, facilitating=3, understanding=None, managing=7)
    prediction = {"perceiving": 6, "managing": 7}  # facilitating missing -> 4
    # errors |5-6| = 1, |3-4| = 1, |7-7| = 0 -> MAE = 2/3 -> 1 - (2/3)/6 = 1 - 1/9 = 0.888889
    assert four_branch_score(truth, prediction) == pytest.approx(8 / 9)


def test_four_branch_edge_cases():
    assert four_branch_score(FourBranchScores(), {"perceiving": 1}) == 1.0  # none rated
    assert four_branch_score(None, None) == 1.0
    # no prediction at all: every branch 4 -> |7 - 4| = 3 -> 1 - 3/6 = 0.5
    assert four_branch_score(FourBranchScores(perceiving=7), None) == pytest.approx(0.5)
    # an out-of-scale prediction is clamped to 7: |1 - 7| = 6 -> 0
    assert four_branch_score(FourBranchScores(perceiving=1), {"Perceiving": 10}) == 0.0
