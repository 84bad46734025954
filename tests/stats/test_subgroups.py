"""Subgroups: the planted diagnosis effect is found; small groups are marked, not hidden."""

import pytest

from attunebench.stats import StatsConfig, SubgroupSpec, compute_statistics
from attunebench.stats.synthetic import synthetic_scores


@pytest.fixture(scope="module")
def statistics():
    frame = synthetic_scores(
        n_models=4, n_conversations=300, seed=5, diagnosis_effect=-0.10, baselines=()
    )
    # One tiny topic: 5 conversations relabelled, to be marked small.
    tiny = frame["conversation_id"].isin([f"conv-{i:04d}" for i in range(5)])
    frame.loc[tiny, "topic"] = "bereavement"
    config = StatsConfig(seed=5, n_resamples=1000, n_permutations=200, min_group_size=20)
    return compute_statistics(frame, config)


def rows(statistics, grouping, level, axis="emotion_recognition"):
    return [
        s for s in statistics.subgroups if (s.grouping, s.level, s.axis) == (grouping, level, axis)
    ]


def test_the_planted_diagnosis_effect_is_found(statistics):
    (row,) = rows(statistics, "trait:any diagnosis", "any diagnosis")
    assert row.reference == "none"
    assert row.ci_high < 0
    assert row.ci_low <= -0.10 <= row.ci_high
    assert row.n_level + row.n_reference == 300


def test_small_groups_are_marked_not_hidden(statistics):
    (row,) = rows(statistics, "topic", "bereavement")
    assert row.n_level == 5 and row.small
    assert row.difference is not None and row.ci_low is not None  # reported all the same
    assert not any(s.small for s in statistics.subgroups if s.grouping == "trait:any diagnosis")


def test_each_level_is_compared_with_the_rest(statistics):
    topics = {s.level for s in statistics.subgroups if s.grouping == "topic"}
    assert "bereavement" in topics and len(topics) == 7
    assert {s.reference for s in statistics.subgroups if s.grouping == "topic"} == {"rest"}
    (row,) = rows(statistics, "topic", "work")
    assert row.n_level + row.n_reference == 300


def test_the_minimum_group_size_is_configurable():
    frame = synthetic_scores(n_models=3, n_conversations=60, seed=1, baselines=())
    config = StatsConfig(
        n_resamples=200, n_permutations=100, min_group_size=1, subgroups=(SubgroupSpec("topic"),)
    )
    found = compute_statistics(frame, config).subgroups
    assert found and not any(s.small for s in found)
