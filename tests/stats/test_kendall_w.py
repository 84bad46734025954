"""Kendall's W across axes, against values worked out by hand."""

import numpy as np
import pytest

from attunebench.stats.ranking import concordance, kendall_w


def test_w_worked_by_hand():
    # Three axes rank four models (rank 1 = best; scores are negated ranks):
    #   axis 1: 1 2 3 4; axis 2: 1 3 2 4; axis 3: 2 1 3 4.
    # Rank sums 4, 6, 8, 12; their mean m(n+1)/2 = 7.5; S = 3.5^2 + 1.5^2 + 0.5^2 + 4.5^2 = 35;
    # W = 12 S / (m^2 (n^3 - n)) = 420 / 540 = 7/9.
    scores = -np.array([[1, 2, 3, 4], [1, 3, 2, 4], [2, 1, 3, 4]], dtype=float)
    assert kendall_w(scores) == pytest.approx(7 / 9)


def test_w_with_ties_worked_by_hand():
    # Axis 2 ties models 2 and 3 (average rank 2.5 each): rank sums 2, 4.5, 5.5, 8; mean 5;
    # S = 9 + 0.25 + 0.25 + 9 = 18.5; T = 2^3 - 2 = 6;
    # W = 12 x 18.5 / (4 x 60 - 2 x 6) = 222 / 228.
    scores = -np.array([[1, 2, 3, 4], [1, 2.5, 2.5, 4]], dtype=float)
    assert kendall_w(scores) == pytest.approx(222 / 228)


def test_perfect_agreement_and_its_p_value():
    means = {axis: np.array([0.9, 0.7, 0.5, 0.3, 0.1]) for axis in ("a", "b", "c")}
    result = concordance(means, ("a", "b", "c"), 2000, np.random.default_rng(0))
    assert result.w == pytest.approx(1.0)
    assert result.chi_square == pytest.approx(3 * 4 * 1.0)
    # Under the null, W = 1 needs the other two shuffles to match the first: (1/5!)^2.
    assert result.p_value < 0.01


def test_independent_rankings_have_low_w_and_a_large_p_value():
    rng = np.random.default_rng(4)
    means = {axis: rng.normal(size=11) for axis in ("a", "b", "c", "d", "e")}
    result = concordance(means, tuple(means), 2000, np.random.default_rng(0))
    assert result.w < 0.5
    assert result.p_value > 0.05
