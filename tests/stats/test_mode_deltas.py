"""Mode deltas: verbose - default and omniscient - default, on shared conversations only."""

import pytest

from attunebench.stats import StatsConfig, compute_statistics
from attunebench.stats.synthetic import synthetic_scores


@pytest.fixture(scope="module")
def statistics():
    # modes after the first add mode_shift each: verbose +0.05, omniscient +0.10.
    frame = synthetic_scores(
        n_models=2,
        n_conversations=150,
        seed=4,
        modes=("default", "verbose", "omniscient"),
        mode_shift=0.05,
        baselines=(),
    )
    # model-01 was run in verbose mode on only 100 of the conversations.
    dropped = (frame["model"] == "model-01") & (frame["mode"] == "verbose")
    dropped &= frame["conversation_id"] >= "conv-0100"
    config = StatsConfig(seed=4, n_resamples=1000, n_permutations=100, subgroups=())
    return compute_statistics(frame[~dropped], config)


def delta(statistics, model, mode, axis="emotion_recognition"):
    (row,) = [d for d in statistics.mode_deltas if (d.model, d.mode, d.axis) == (model, mode, axis)]
    return row


def test_planted_mode_shifts_are_found(statistics):
    for model in ("model-01", "model-02"):
        verbose, omniscient = (
            delta(statistics, model, "verbose"),
            delta(statistics, model, "omniscient"),
        )
        assert verbose.base_mode == "default"
        assert verbose.ci_low <= 0.05 <= verbose.ci_high and verbose.ci_low > 0
        assert omniscient.ci_low <= 0.10 <= omniscient.ci_high


def test_deltas_use_shared_conversations_only(statistics):
    assert delta(statistics, "model-01", "verbose").n_shared == 100
    assert delta(statistics, "model-02", "verbose").n_shared == 150
