"""Rank intervals: clear gaps give single ranks, ties give wide intervals; baselines unranked."""

from attunebench.stats import StatsConfig, compute_statistics
from attunebench.stats.synthetic import synthetic_scores


def composite_ranks(shifts):
    frame = synthetic_scores(n_models=len(shifts), n_conversations=150, seed=8, model_shifts=shifts)
    stats = compute_statistics(
        frame, StatsConfig(seed=8, n_resamples=1000, n_permutations=100, subgroups=())
    )
    return {e.model: e for e in stats.estimates if e.axis == "composite"}


def test_well_separated_models_have_exact_ranks():
    ranks = composite_ranks([0.0, 0.2, 0.4])
    assert [
        (ranks[m].rank_low, ranks[m].rank_high) for m in ("model-03", "model-02", "model-01")
    ] == [(1, 1), (2, 2), (3, 3)]
    assert ranks["baseline/random"].rank is None and ranks["baseline/random"].baseline


def test_identical_models_share_a_wide_rank_interval():
    ranks = composite_ranks([0.0] * 4)
    assert all(
        ranks[f"model-0{k}"].rank_high - ranks[f"model-0{k}"].rank_low >= 2 for k in range(1, 5)
    )
