"""The input contract: ``score_frame`` builds it from scored records; violations are named."""

import pandas as pd
import pytest

from annotations.seeding import demo_conversations
from attunebench.baselines import all_baseline_runs
from attunebench.instrument import default_instrument
from attunebench.records import Conversation, Metadata, ParticipantProfile
from attunebench.report import Provenance, write_report
from attunebench.scoring import score_conversation
from attunebench.stats import (
    AXES,
    StatsConfig,
    compute_statistics,
    conversation_attributes,
    score_frame,
    validate_score_frame,
)
from attunebench.stats.synthetic import synthetic_scores


def test_score_frame_from_records_runs_through_statistics_and_report(tmp_path):
    conversations = list(demo_conversations(default_instrument(), 24, seed=3))
    by_id = {c.conversation_id: c for c in conversations}
    scores = [
        score_conversation(by_id[r.conversation_id], r) for r in all_baseline_runs(conversations)
    ]
    frame = score_frame(scores, conversations)
    assert {"model", "mode", "conversation_id", *AXES, "topic", "original_model"} <= set(
        frame.columns
    )
    assert any(c.startswith("trait:") for c in frame.columns)
    assert len(frame) == 4 * 24 and frame["composite"].between(0, 100).all()
    validate_score_frame(frame)
    stats = compute_statistics(frame, StatsConfig(n_resamples=200, n_permutations=50))
    assert stats.models == () and len(stats.baselines) == 4  # baselines only: reference rows
    assert all(e.rank is None for e in stats.estimates)
    files = write_report(stats, tmp_path, Provenance("h", "p", "r"))
    assert files.html.exists()


def test_trait_columns_compare_a_group_with_participants_reporting_none():
    def conversation(cid: str, traits: tuple[str, ...] | None) -> Conversation:
        profile = None if traits is None else ParticipantProfile(traits=traits)
        return Conversation(
            cid, metadata=Metadata(model="m", category="work"), participant_profile=profile
        )

    groups = {"anx": ("diagnosis:anxiety_depression",), "asd": ("diagnosis:asd_adhd",)}
    table = conversation_attributes(
        [
            conversation("a", ("diagnosis:anxiety_depression",)),
            conversation("b", ("DIAGNOSIS:ASD_ADHD", "student")),
            conversation("c", ("student",)),
            conversation("d", None),
        ],
        groups,
    ).set_index("conversation_id")
    assert list(table["trait:anx"].fillna("-")) == ["anx", "-", "none", "-"]
    assert list(table["trait:asd"].fillna("-")) == ["-", "asd", "none", "-"]
    assert list(table["topic"]) == ["work"] * 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda f: f.drop(columns="composite"), "lacks columns: composite"),
        (lambda f: pd.concat([f, f.head(1)]), "duplicate"),
        (lambda f: f.assign(composite="high"), "not numeric"),
    ],
)
def test_contract_violations_are_named(change, message):
    frame = synthetic_scores(n_models=2, n_conversations=10, seed=0, baselines=())
    with pytest.raises(ValueError, match=message):
        validate_score_frame(change(frame))


def test_a_grouping_value_must_not_differ_within_a_conversation():
    frame = synthetic_scores(n_models=2, n_conversations=10, seed=0, baselines=())
    frame.loc[0, "topic"] = "something else"
    with pytest.raises(ValueError, match="differs between rows"):
        compute_statistics(frame, StatsConfig(n_resamples=10, n_permutations=10))
