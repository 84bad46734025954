"""The vectorised BCa interval agrees with scipy's, and degenerate samples stay sensible."""

import numpy as np
import pytest
from scipy.stats import bootstrap

from attunebench.stats.resampling import (
    bca_interval,
    centred_p_value,
    masked,
    ratio_replicates,
    resample_counts,
)


def test_matches_scipy_bca_on_a_skewed_sample():
    x = np.random.default_rng(1).exponential(size=40)
    counts = resample_counts(40, 20_000, np.random.default_rng(2))
    low, high = bca_interval(ratio_replicates(counts, *masked(x[:, None])), 0.95)
    expected = bootstrap((x,), np.mean, method="BCa", n_resamples=20_000, rng=3).confidence_interval
    assert low[0] == pytest.approx(expected.low, rel=0.02)
    assert high[0] == pytest.approx(expected.high, rel=0.02)


def test_constant_and_missing_columns():
    values = np.column_stack(
        [np.full(30, 0.5), np.full(30, np.nan), np.r_[np.full(29, np.nan), 1.0]]
    )
    counts = resample_counts(30, 500, np.random.default_rng(0))
    replicates = ratio_replicates(counts, *masked(values))
    low, high = bca_interval(replicates, 0.95)
    assert (low[0], high[0]) == (0.5, 0.5)  # no spread, a point interval
    assert np.isnan(low[1]) and np.isnan(high[1])  # no data: undefined, never an error
    assert (low[2], high[2]) == (1.0, 1.0)  # one conversation: resamples missing it are left out
    assert centred_p_value(replicates)[0] > 0  # never 0


def test_stratified_resamples_keep_group_sizes():
    strata = np.array([0] * 5 + [1] * 10 + [-1] * 3)
    counts = resample_counts(18, 200, np.random.default_rng(0), strata)
    assert (counts[:, :5].sum(axis=1) == 5).all() and (counts[:, 5:15].sum(axis=1) == 10).all()
    assert (counts[:, 15:] == 0).all()
