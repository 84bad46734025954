"""The language subgroup: the score frame carries each conversation's language, and a run on
conversations in more than one language compares each language with the rest, as topics and
original models are; a one-language run has no language comparison."""

import pytest

from annotations.seeding import demo_conversations
from attunebench.baselines import all_baseline_runs
from attunebench.instrument import default_instrument
from attunebench.language import with_language
from attunebench.report import Provenance, write_report
from attunebench.scoring import score_conversation
from attunebench.stats import StatsConfig, compute_statistics, score_frame
from attunebench.stats.contract import LANGUAGE_COLUMN, SubgroupSpec, default_subgroups

CONFIG = StatsConfig(n_resamples=200, n_permutations=50, min_group_size=5)


def frame_of(conversations):
    by_id = {c.conversation_id: c for c in conversations}
    scores = [
        score_conversation(by_id[r.conversation_id], r) for r in all_baseline_runs(conversations)
    ]
    frame = score_frame(scores, conversations)
    # One baseline stands in for a model under test: subgroups pool the models, not baselines.
    first = sorted(frame["model"].unique())[0]
    frame.loc[frame["model"] == first, "model"] = "fake/model"
    return frame


@pytest.fixture(scope="module")
def conversations():
    found = list(demo_conversations(default_instrument(), 24, seed=3))
    # Every third conversation's participant took the study in Spanish.
    return [with_language(c, "es") if i % 3 == 0 else c for i, c in enumerate(found)]


def test_the_score_frame_has_the_language_of_each_conversation(conversations):
    frame = frame_of(conversations)
    per_conversation = frame.groupby("conversation_id")[LANGUAGE_COLUMN].first()
    assert per_conversation.value_counts().to_dict() == {"en": 16, "es": 8}
    assert SubgroupSpec(LANGUAGE_COLUMN) in default_subgroups(frame)


def test_each_language_is_compared_with_the_rest(conversations, tmp_path):
    statistics = compute_statistics(frame_of(conversations), CONFIG)
    found = [s for s in statistics.subgroups if s.grouping == LANGUAGE_COLUMN]
    assert {(s.level, s.reference) for s in found} == {("en", "rest"), ("es", "rest")}
    assert {s.axis for s in found} == set(statistics.axes)
    for row in (s for s in found if s.axis == "composite"):  # baselines have no judged quality
        assert row.n_level + row.n_reference == 24
        assert row.n_level == (8 if row.level == "es" else 16)
        assert row.ci_low is not None and row.ci_low <= row.difference <= row.ci_high
    html = write_report(statistics, tmp_path, Provenance("h", "p", "r")).html.read_text()
    assert "language: es vs rest" in html and "language: en vs rest" in html


def test_a_run_in_one_language_has_no_language_comparison():
    english = list(demo_conversations(default_instrument(), 12, seed=4))
    frame = frame_of(english)
    assert set(frame[LANGUAGE_COLUMN]) == {"en"}  # files from before languages: English
    assert all(spec.column != LANGUAGE_COLUMN for spec in default_subgroups(frame))
    statistics = compute_statistics(frame, CONFIG)
    assert not [s for s in statistics.subgroups if s.grouping == LANGUAGE_COLUMN]
