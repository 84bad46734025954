"""Issue 40, item 4: what is corrected for multiple comparisons is said plainly, and the pair
tests can be corrected across the axes (Holm over every axis-pair test) instead of per axis.

Hand-worked Holm, two axes of two pairs each, raw p-values X: 0.01, 0.04 and Y: 0.02, 0.50.
Within each axis (m = 2): X 0.01 x 2 = 0.02, 0.04 x 1 = 0.04 (running max 0.04); Y 0.02 x 2 =
0.04, 0.50. Across the axes (m = 4): 0.01 x 4 = 0.04, 0.02 x 3 = 0.06, 0.04 x 2 = 0.08,
0.50 x 1 = 0.50. At alpha 0.05 three pairs are distinguished per axis, one across the axes.
"""

import json

import pytest

from attunebench.report import Provenance, write_report
from attunebench.stats import StatsConfig, compute_statistics
from attunebench.stats.multiple import holm
from attunebench.stats.pairwise import holm_families
from attunebench.stats.synthetic import synthetic_scores


def test_holm_within_each_axis_and_across_the_axes_by_hand():
    within, across = holm_families([0.01, 0.04, 0.02, 0.50], 2)
    assert within == pytest.approx([0.02, 0.04, 0.04, 0.50])
    assert across == pytest.approx([0.04, 0.08, 0.06, 0.50])
    assert sum(p < 0.05 for p in within) == 3 and sum(p < 0.05 for p in across) == 1


def statistics(**options):
    frame = synthetic_scores(
        n_models=4, n_conversations=60, seed=5, model_shifts=[0, 0, 0.02, 0.04], baselines=()
    )
    config = StatsConfig(seed=5, n_resamples=400, n_permutations=50, subgroups=(), **options)
    return compute_statistics(frame, config)


@pytest.fixture(scope="module")
def per_axis():
    return statistics()


@pytest.fixture(scope="module")
def across_axes():
    return statistics(holm_across_axes=True)


def test_both_adjusted_p_values_are_reported_and_the_option_chooses(per_axis, across_axes):
    raw = [t.p_value for t in per_axis.pairs]
    assert [t.p_holm_across_axes for t in per_axis.pairs] == pytest.approx(holm(raw))
    assert [t.distinguished for t in per_axis.pairs] == [t.p_holm < 0.05 for t in per_axis.pairs]
    assert [t.distinguished for t in across_axes.pairs] == [
        t.p_holm_across_axes < 0.05 for t in across_axes.pairs
    ]
    # The same tests, only the family differs: across the axes never distinguishes more.
    assert [t.p_value for t in across_axes.pairs] == raw
    assert sum(t.distinguished for t in across_axes.pairs) <= sum(
        t.distinguished for t in per_axis.pairs
    )
    assert across_axes.settings["holm_across_axes"] is True
    assert "across the axes" in across_axes.settings["methods"]["pair_test"]


def test_the_record_says_what_is_corrected_and_what_is_not(per_axis, across_axes):
    record = per_axis.multiplicity
    assert record["correction"] == "holm_within_axis"
    # 4 models: 6 pairs per axis; 5 tested axes (the paper's four and the composite).
    assert (record["pairs_per_axis"], record["families"], record["total_pair_tests"]) == (6, 5, 30)
    assert record["worst_case_any_false_difference"] == pytest.approx(0.25)
    assert "pair tests across the 5 axes" in record["not_corrected"]
    assert "pair differences" in record["unadjusted_intervals"]
    assert "not corrected across the 5 axes" in record["statement"]
    assert "unadjusted 95% interval" in record["statement"]
    other = across_axes.multiplicity
    assert (other["correction"], other["family_size"], other["families"]) == (
        "holm_across_axes",
        30,
        1,
    )
    assert other["worst_case_any_false_difference"] == pytest.approx(0.05)
    assert "Holm over all 30 axis-pair tests" in other["statement"]


def test_report_json_and_html_state_it(per_axis, tmp_path):
    files = write_report(per_axis, tmp_path, Provenance("h", "v1", "1"))
    document = json.loads(files.json.read_text())
    assert document["multiplicity"]["correction"] == "holm_within_axis"
    assert document["statistics"]["pairs"][0]["p_holm_across_axes"] is not None
    html = files.html.read_text()
    assert (
        "<strong>Multiple comparisons.</strong> Pair tests are corrected within each axis" in html
    )
    assert "Holm per axis, not across the axes" in html
    pairs = next(s["html"] for s in document["sections"] if s["id"] == "pairs")
    assert "Multiple comparisons." in pairs  # the admin shows the pairs section as it is
