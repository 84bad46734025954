"""A planted difference of a stated size is found, and only where it was planted.

Four models; model-04 is 0.06 higher on every axis (about half the per-conversation noise sd
of 0.12, at n = 200). Paired over shared conversations the standard error of a difference is
about 0.12 * sqrt(2) / sqrt(200) = 0.012, so 0.06 is about 5 standard errors: every pair with
model-04 must be distinguished on every 0..1 axis, its interval must cover 0.06, and the three
identical models must not be told apart.
"""

import pytest

from attunebench.stats import StatsConfig, compute_statistics
from attunebench.stats.synthetic import synthetic_scores

SHIFT = 0.06
COMPONENTS = (
    "emotion_recognition",
    "behaviour_classification",
    "preference_prediction",
    "judged_response_quality",
    "outcome_prediction",
)


@pytest.fixture(scope="module")
def statistics():
    frame = synthetic_scores(
        n_models=4, n_conversations=200, seed=3, model_shifts=[0, 0, 0, SHIFT], baselines=()
    )
    return compute_statistics(frame, StatsConfig(seed=3, n_resamples=2000, n_permutations=500))


def test_every_pair_with_the_better_model_is_distinguished(statistics):
    for test in statistics.pairs:
        if "model-04" in (test.model_a, test.model_b):
            assert test.distinguished, test
            assert test.model_b == "model-04" and test.difference < 0


def test_the_interval_of_the_planted_difference_covers_it(statistics):
    for test in statistics.pairs:
        if test.model_b == "model-04" and test.axis in COMPONENTS:
            assert test.ci_low <= -SHIFT <= test.ci_high, test


def test_identical_models_are_not_distinguished(statistics):
    identical = [t for t in statistics.pairs if "model-04" not in (t.model_a, t.model_b)]
    assert len(identical) == 3 * 5  # the five tested axes (outcome is reported, not tested)
    assert not any(t.distinguished for t in identical)


def test_the_summary_counts_three_of_six_pairs(statistics):
    for row in statistics.discriminability:
        assert (row.n_distinguished, row.n_pairs) == (3, 6)
        assert row.share_distinguished == pytest.approx(0.5)
