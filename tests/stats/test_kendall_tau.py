"""Kendall's tau between axis rankings matches scipy, and its permutation p-value too."""

import numpy as np
import pytest
from scipy.stats import kendalltau

from attunebench.stats.ranking import kendall_tau, kendall_tau_test, rank_correlations


@pytest.mark.parametrize("seed", range(5))
def test_tau_matches_scipy_without_and_with_ties(seed):
    rng = np.random.default_rng(seed)
    x, y = rng.normal(size=11), rng.normal(size=11)
    assert kendall_tau(x, y) == pytest.approx(kendalltau(x, y).statistic)
    tied_x, tied_y = np.round(x), np.round(y)  # many ties: tau-b's correction matters
    assert kendall_tau(tied_x, tied_y) == pytest.approx(kendalltau(tied_x, tied_y).statistic)


def test_a_hand_worked_tau():
    # Rankings 1 2 3 4 and 1 3 2 4: of 6 pairs, 5 concordant and 1 discordant -> 4/6.
    assert kendall_tau([4, 3, 2, 1], [4, 2, 3, 1]) == pytest.approx(4 / 6)


def test_exact_permutation_p_equals_scipy_exact_p():
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=6), rng.normal(size=6)
    tau, p, exact = kendall_tau_test(x, y, n_permutations=10_000, rng=rng)
    assert exact  # 6! = 720 permutations fit in the budget
    expected = kendalltau(x, y, method="exact")
    assert tau == pytest.approx(expected.statistic)
    assert p == pytest.approx(expected.pvalue)


def test_monte_carlo_p_is_close_to_exact_for_many_models():
    rng = np.random.default_rng(2)
    x = rng.normal(size=11)
    y = x + rng.normal(scale=1.0, size=11)
    tau, p, exact = kendall_tau_test(x, y, n_permutations=20_000, rng=np.random.default_rng(3))
    assert not exact
    assert p == pytest.approx(kendalltau(x, y, method="exact").pvalue, abs=0.01)


def test_axes_with_too_few_shared_models_have_no_tau():
    means = {"a": np.array([0.1, 0.2, np.nan, np.nan]), "b": np.array([0.3, 0.1, 0.2, 0.4])}
    (result,) = rank_correlations(means, ("a", "b"), 100, np.random.default_rng(0))
    assert result.n_models == 2 and result.tau is None and result.p_value is None
