"""Seeds are fixed and recorded; the same seed gives the same numbers, JSON is strict."""

import json

from attunebench.stats import StatsConfig, compute_statistics
from attunebench.stats.synthetic import synthetic_scores


def test_same_seed_same_numbers_other_seed_other_resamples():
    frame = synthetic_scores(n_models=4, n_conversations=60, seed=1, modes=("default", "verbose"))
    config = StatsConfig(seed=11, n_resamples=300, n_permutations=100)
    first, second = compute_statistics(frame, config), compute_statistics(frame, config)
    assert first.to_dict() == second.to_dict()
    other = compute_statistics(frame, StatsConfig(seed=12, n_resamples=300, n_permutations=100))
    assert other.estimates[0].mean == first.estimates[0].mean  # the data decide the means
    assert other.estimates[0].ci_low != first.estimates[0].ci_low  # the seed decides resamples


def test_the_row_order_of_the_frame_does_not_matter():
    frame = synthetic_scores(n_models=3, n_conversations=40, seed=2)
    config = StatsConfig(seed=3, n_resamples=300, n_permutations=100)
    shuffled = frame.sample(frac=1.0, random_state=0).reset_index(drop=True)
    assert (
        compute_statistics(frame, config).to_dict()
        == compute_statistics(shuffled, config).to_dict()
    )


def test_settings_record_the_seed_and_methods_and_json_is_strict():
    frame = synthetic_scores(n_models=3, n_conversations=40, seed=2)
    data = compute_statistics(
        frame, StatsConfig(seed=5, n_resamples=200, n_permutations=50)
    ).to_dict()
    assert data["settings"]["seed"] == 5
    assert data["settings"]["streams"]["conversations"] == 0
    assert "BCa" in data["settings"]["methods"]["interval"]
    assert "timings" not in data
    json.dumps(data, allow_nan=False)
