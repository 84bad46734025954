"""Emotion F1 and Emotion VA (spec section 4), against values worked out by hand."""

import math

import pytest

from attunebench.records import MoodTag
from attunebench.scoring import ScoringOptions, emotion_f1, emotion_va, va_similarity

ROOT2 = math.sqrt(2)


def tags(*names: str) -> tuple[MoodTag, ...]:
    return tuple(MoodTag(name, 4) for name in names)


# --- Emotion F1 --------------------------------------------------------------------------------


def test_f1_both_empty_scores_one():
    assert emotion_f1((), ()) == 1.0


def test_f1_missing_prediction_is_an_empty_prediction():
    assert emotion_f1((), None) == 1.0
    assert emotion_f1(tags("Upset"), None) == 0.0


def test_f1_participant_neutral_but_em_tagged_scores_zero():
    assert emotion_f1((), tags("Upset")) == 0.0


def test_f1_participant_tagged_but_em_neutral_scores_zero():
    assert emotion_f1(tags("Upset"), ()) == 0.0


def test_f1_partial_overlap_is_case_insensitive():
    # T = {upset, nervous}, P = {upset, afraid}: |T and P| = 1 -> F1 = 2*1 / (2 + 2) = 0.5
    assert emotion_f1(tags("Upset", "Nervous"), tags("upset", "AFRAID")) == pytest.approx(0.5)


def test_f1_duplicates_count_once():
    # P = {upset} after dedup; T = {upset, nervous}: 2*1 / (2 + 1) = 2/3
    assert emotion_f1(tags("Upset", "Nervous"), tags("upset", "Upset")) == pytest.approx(2 / 3)


# --- VA similarity and Emotion VA -------------------------------------------------------------


def test_va_similarity_by_hand():
    # Afraid (.073, .84) vs Scared (.083, .82): distance = sqrt(.01^2 + .02^2) = sqrt(.0005)
    # = 0.0223607; similarity = 1 - 0.0223607 / 1.4142136 = 1 - 0.0158114 = 0.9841886
    assert va_similarity("Afraid", "scared") == pytest.approx(0.9841886, abs=1e-7)
    assert va_similarity("Upset", "upset") == 1.0
    assert va_similarity("Upset", "not-an-emotion") == 0.0


def test_va_both_empty_scores_one_and_one_empty_scores_zero():
    assert emotion_va((), ()) == 1.0
    assert emotion_va((), tags("Upset")) == 0.0
    assert emotion_va(tags("Upset"), ()) == 0.0
    assert emotion_va(tags("Upset"), None) == 0.0


def test_va_identical_sets_score_one():
    assert emotion_va(tags("Upset", "Proud"), tags("proud", "upset")) == pytest.approx(1.0)


def test_va_coverage_scales_the_matched_mean():
    # T = {Afraid, Proud}, P = {Scared}. Scared matches Afraid (0.9841886) rather than Proud
    # (distance sqrt(.767^2 + .17^2) = 0.785614, similarity 0.444490). Coverage = 1/2.
    # Score = 0.9841886 * 0.5 = 0.4920943
    assert emotion_va(tags("Afraid", "Proud"), tags("Scared")) == pytest.approx(0.4920943, abs=1e-7)


def test_va_uses_the_optimal_assignment_not_greedy():
    # T = {Inspired (.9,.7), Interested (.65,.6)}, P = {Strong (.75,.7), Guilty (.15,.6)}
    #   Inspired-Strong   : dist .15           -> 1 - .15/sqrt2 = 0.893934
    #   Inspired-Guilty   : dist sqrt(.5725)   -> 0.464974
    #   Interested-Strong : dist sqrt(.02)     -> 1 - .1       = 0.9
    #   Interested-Guilty : dist .5            -> 1 - .5/sqrt2 = 0.646447
    # Greedy would take the best pair (0.9) first and end at (0.9 + 0.464974)/2 = 0.682487.
    # Optimal: (0.893934 + 0.646447)/2 = 1 - 0.325/sqrt2 = 0.770190; coverage 2/2.
    expected = 1 - 0.325 / ROOT2
    assert emotion_va(tags("Inspired", "Interested"), tags("Strong", "Guilty")) == pytest.approx(
        expected
    )
    assert expected == pytest.approx(0.770190, abs=1e-6)


def test_va_unknown_predicted_label_has_zero_similarity_but_counts_for_coverage():
    # T = {Upset}, P = {Upset, Bored}: the match is Upset-Upset (1.0), coverage 1/2 -> 0.5
    assert emotion_va(tags("Upset"), (MoodTag("Upset", 3), MoodTag("Bored", 3))) == pytest.approx(
        0.5
    )


def test_compat_rounds_each_va_pair_similarity_to_four_decimals():
    # Afraid-Scared = 0.9841886 (above); the reference's port rounds it to 0.9842 first.
    # T = {Afraid, Proud}, P = {Scared}: default 0.9841886 / 2 = 0.4920943,
    # compat 0.9842 / 2 = 0.4921 exactly.
    compat = ScoringOptions(compat=True)
    assert emotion_va(tags("Afraid"), tags("Scared"), compat) == 0.9842
    assert emotion_va(tags("Afraid", "Proud"), tags("Scared"), compat) == pytest.approx(0.4921)
    assert emotion_va(tags("Afraid", "Proud"), tags("Scared")) == pytest.approx(0.4920943, abs=1e-7)
