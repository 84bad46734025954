"""Identical models are distinguished in at most 5% of pairs over repeated seeds.

Six models with the same true mean on every axis (shared conversation difficulty plus their own
noise), 20 seeds x 15 pairs x 5 tested axes (the paper's four and the composite) = 1,500
pair tests. Holm controls the family-wise error
per axis at 5%, so far fewer than 5% of pairs may be called distinguished; the raw paired
tests, uncorrected, should reject at about their nominal 5%.
"""

from attunebench.stats import StatsConfig, compute_statistics
from attunebench.stats.synthetic import synthetic_scores


def test_identical_models_are_rarely_distinguished():
    distinguished, raw_rejections, tests = 0, 0, 0
    for seed in range(20):
        frame = synthetic_scores(
            n_models=6, n_conversations=120, seed=seed, model_shifts=[0.0] * 6, baselines=()
        )
        stats = compute_statistics(
            frame, StatsConfig(seed=seed, n_resamples=1000, n_permutations=200, subgroups=())
        )
        distinguished += sum(t.distinguished for t in stats.pairs)
        raw_rejections += sum(t.p_value < 0.05 for t in stats.pairs)
        tests += len(stats.pairs)
    assert tests == 20 * 15 * 5
    assert distinguished / tests <= 0.05
    # The raw test is calibrated: about 5% (binomial sd 0.6% at 1,500 tests; the pairs share
    # models, so allow a wide band rather than a tight one).
    assert 0.02 <= raw_rejections / tests <= 0.08, raw_rejections / tests
