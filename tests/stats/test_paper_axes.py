"""Issue 40, item 6: the paper's four axes (and the composite) are the ones ranked and tested by
default; outcome prediction, this platform's addition, is reported beside them (mean and
interval) without ranks or pair tests and stays out of rank independence unless asked.

Hand-worked Kendall's W on three models whose means order the axes as follows (1 = best):

    axis                       A  B  C
    emotion recognition        1  2  3
    behaviour classification   1  2  3
    preference prediction      3  2  1
    judged response quality    1  2  3
    outcome prediction         3  2  1

Over the paper's four axes (m = 4, n = 3) the rank sums are 6, 8, 10 around m (n + 1) / 2 = 8:
S = 4 + 0 + 4 = 8, W = 12 S / (m^2 (n^3 - n)) = 96 / (16 x 24) = 0.25. With outcome prediction
(m = 5) the sums are 9, 10, 11 around 10: S = 2, W = 24 / (25 x 24) = 0.04.
"""

import pandas as pd
import pytest

from attunebench.stats import AXES, PAPER_AXES, StatsConfig, compute_statistics

MEANS = {  # model -> axis -> value; conversations add 0.01 x their index to every value
    "A": (0.9, 0.9, 0.1, 0.9, 0.1),
    "B": (0.5, 0.5, 0.5, 0.5, 0.5),
    "C": (0.1, 0.1, 0.9, 0.1, 0.9),
}


def frame() -> pd.DataFrame:
    rows = []
    for model, values in MEANS.items():
        for c in range(6):
            axes = dict(zip(AXES[:5], (v + 0.01 * c for v in values), strict=True))
            rows.append(
                {
                    "model": model,
                    "mode": "default",
                    "conversation_id": f"conv-{c}",
                    **axes,
                    "composite": 50.0 + c,
                }
            )
    return pd.DataFrame(rows)


def config(**changes) -> StatsConfig:
    return StatsConfig(seed=1, n_resamples=200, n_permutations=100, subgroups=(), **changes)


@pytest.fixture(scope="module")
def default():
    return compute_statistics(frame(), config())


def test_the_paper_axes_and_the_composite_are_ranked_and_tested(default):
    tested = (*PAPER_AXES, "composite")
    assert default.ranked_axes == tested and default.platform_axes == ("outcome_prediction",)
    assert {t.axis for t in default.pairs} == set(tested)
    assert [d.axis for d in default.discriminability] == list(tested)
    emotion = {e.model: e for e in default.estimates if e.axis == "emotion_recognition"}
    assert (emotion["A"].rank, emotion["C"].rank) == (1, 3)


def test_outcome_prediction_is_reported_but_not_ranked_or_tested(default):
    outcome = {e.model: e for e in default.estimates if e.axis == "outcome_prediction"}
    assert outcome["C"].mean == pytest.approx(0.9 + 0.01 * 2.5)  # mean of c = 0..5
    assert outcome["C"].ci_low is not None
    assert all(e.rank is None and e.rank_low is None for e in outcome.values())
    assert not any(t.axis == "outcome_prediction" for t in default.pairs)
    assert "outcome_prediction" in default.settings["methods"]["axes"]


def test_rank_independence_runs_over_the_four_paper_axes(default):
    assert default.concordance.axes == PAPER_AXES
    assert default.concordance.w == pytest.approx(0.25)
    assert len(default.rank_correlations) == 6  # 4 choose 2
    pairs = {(r.axis_a, r.axis_b): r.tau for r in default.rank_correlations}
    assert pairs[("emotion_recognition", "behaviour_classification")] == pytest.approx(1.0)
    assert pairs[("emotion_recognition", "preference_prediction")] == pytest.approx(-1.0)


def test_asked_for_outcome_prediction_is_ranked_tested_and_compared():
    found = compute_statistics(frame(), config(rank_outcome=True))
    assert "outcome_prediction" in found.ranked_axes
    assert found.concordance.axes == (*PAPER_AXES, "outcome_prediction")
    assert found.concordance.w == pytest.approx(0.04)
    assert len(found.rank_correlations) == 10
    outcome = {e.model: e for e in found.estimates if e.axis == "outcome_prediction"}
    assert outcome["C"].rank == 1 and outcome["A"].rank == 3
    assert sum(t.axis == "outcome_prediction" for t in found.pairs) == 3
    assert found.settings["rank_outcome"] is True


def test_the_report_labels_the_platform_axis_and_does_not_rank_it(default, tmp_path):
    from attunebench.report import Provenance, write_report

    files = write_report(default, tmp_path, Provenance("h", "v1", "1"))
    html = files.html.read_text()
    assert "Outcome prediction (this platform&#x27;s addition) (95% CI)" in html
    assert "not ranked" in html and 'class="platform-axes"' in html
    assert "charts/pairs_outcome_prediction.svg" not in html
    assert "not one of the paper&#x27;s four axes; it is not ranked in this report." in html
    table = pd.read_csv(files.csv)
    assert table["outcome_prediction_rank"].isna().all()
    assert table["outcome_prediction_mean"].notna().all()
