"""The "how to read this" notes state the statistics correctly: a 95% interval is a statement
about the true mean (intervals built this way contain it about 19 times in 20), not about
where another sample's mean falls; and a large permutation p-value for Kendall's tau means the
rankings cannot be told from independent ones with this many models, not that they are."""

from attunebench.report.reading import note


def test_the_interval_is_read_as_covering_the_true_mean():
    text = note("leaderboard")
    assert "contain the true mean about 19 times in 20" in text
    assert "another sample" not in text  # a fresh sample's mean lands inside only ~84% of the time


def test_a_large_p_value_is_not_read_as_independence():
    text = note("ranks")
    assert "different abilities" not in text
    assert "cannot be told from independent ones with this many models" in text
    assert "not that they are independent" in text
