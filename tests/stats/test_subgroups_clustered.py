"""Issue 40, item 3: subgroups resample participants, not conversations. A participant's
conversations are not independent evidence about their group: counting four copies of one
person's conversation as four people makes the interval too narrow.

Check by construction: twelve participants (six with the trait, six with none), one
conversation each; then the same participants with four identical copies of their
conversation. Resampling participants, the copies change nothing (same seed, same draws of
participants, same per-participant means), so difference, interval and p-value are equal to
the one-conversation data; resampling conversations, the copies narrow the interval.
"""

from dataclasses import replace

import pandas as pd
import pytest

from attunebench.records import Conversation, Metadata, ParticipantProfile
from attunebench.stats import (
    AXES,
    StatsConfig,
    SubgroupDifference,
    SubgroupSpec,
    compute_statistics,
    conversation_attributes,
)
from attunebench.stats.subgroups import holm_by_axis

TRAIT = "trait:diagnosis"
SCORES = [0.30, 0.55, 0.42, 0.61, 0.25, 0.48, 0.70, 0.52, 0.66, 0.81, 0.58, 0.73]


def frame(copies: int, *, participants: bool = True) -> pd.DataFrame:
    rows = []
    for person, score in enumerate(SCORES):
        for copy in range(copies):
            row = {
                "model": "m",
                "mode": "default",
                "conversation_id": f"c{person:02d}-{copy}",
                **dict.fromkeys(AXES[:5], score),
                "composite": 100 * score,
                TRAIT: "diagnosis" if person < 6 else "none",
            }
            if participants:
                row["participant_id"] = f"p{person:02d}"
            rows.append(row)
    return pd.DataFrame(rows)


def subgroups(data: pd.DataFrame):
    config = StatsConfig(
        seed=11,
        n_resamples=2000,
        n_permutations=10,
        min_group_size=5,
        subgroups=(SubgroupSpec(TRAIT, "none"),),
    )
    found = compute_statistics(data, config).subgroups
    return {s.axis: s for s in found}


def test_copies_of_a_participant_change_nothing_when_participants_are_resampled():
    one = subgroups(frame(1))["emotion_recognition"]
    four = subgroups(frame(4))["emotion_recognition"]
    # By hand: diagnosis mean (0.30+0.55+0.42+0.61+0.25+0.48)/6 = 2.61/6 = 0.435;
    # none (0.70+0.52+0.66+0.81+0.58+0.73)/6 = 4.00/6 = 0.6667; difference -0.2317.
    assert one.mean_level == pytest.approx(0.435)
    assert one.mean_reference == pytest.approx(4.0 / 6)
    assert one.difference == pytest.approx(0.435 - 4.0 / 6)
    assert (four.difference, four.ci_low, four.ci_high, four.p_value) == pytest.approx(
        (one.difference, one.ci_low, one.ci_high, one.p_value)
    )
    assert (four.n_level, four.n_reference) == (24, 24)
    assert (four.n_level_participants, four.n_reference_participants) == (6, 6)
    assert not four.small  # six participants a side, minimum five
    assert one.p_value < 0.05  # every diagnosis score but one is below every none score


def test_resampling_conversations_would_narrow_the_interval():
    clustered = subgroups(frame(4))["emotion_recognition"]
    naive = subgroups(frame(4, participants=False))["emotion_recognition"]
    assert naive.difference == pytest.approx(clustered.difference)
    width = clustered.ci_high - clustered.ci_low
    # Four copies as four people: about half the width (sqrt 4), far narrower in any case.
    assert naive.ci_high - naive.ci_low < 0.7 * width
    assert naive.n_level_participants == 24  # each conversation its own participant


def test_a_group_with_few_participants_is_small_however_many_conversations():
    data = frame(10)
    data.loc[data["participant_id"].isin(["p00", "p01", "p02"]), TRAIT] = "none"
    found = subgroups(data)["emotion_recognition"]
    assert (found.n_level, found.n_level_participants) == (30, 3)
    assert found.small


def test_holm_over_the_comparisons_of_each_axis():
    """Axis a: p 0.01, 0.04, 0.03 -> 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 -> 0.06 (the
    running maximum); axis b alone: 0.20 stays."""
    base = SubgroupDifference("g", "x", "none", "a", 0, 0, 0, 0, 0, 10, 10, False)
    found = [
        replace(base, level="x", p_value=0.01),
        replace(base, level="y", p_value=0.04),
        replace(base, level="z", p_value=0.03),
        replace(base, axis="b", p_value=0.20),
    ]
    assert [d.p_holm for d in holm_by_axis(found)] == pytest.approx([0.03, 0.06, 0.06, 0.20])


def test_the_score_frame_carries_the_participant_of_each_conversation():
    def conversation(cid: str, participant: str | None) -> Conversation:
        profile = ParticipantProfile(participant_id=participant, traits=())
        return Conversation(
            cid, metadata=Metadata(model="m", category="work"), participant_profile=profile
        )

    table = conversation_attributes(
        [conversation("a", "p1"), conversation("b", "p1"), conversation("c", None)], {}
    ).set_index("conversation_id")
    # A conversation without a known participant is its own.
    assert list(table["participant_id"]) == ["p1", "p1", "c"]


def test_the_report_table_names_participants_and_the_adjusted_p_value(tmp_path):
    from attunebench.report import Provenance, write_report

    config = StatsConfig(seed=11, n_resamples=300, n_permutations=10, min_group_size=5)
    statistics = compute_statistics(frame(4), config)
    html = write_report(statistics, tmp_path, Provenance("h", "v1", "1")).html.read_text()
    assert "24 / 24 (6 / 6 participants)" in html
    assert "; p (Holm) " in html and "cluster bootstrap over participants" in html
