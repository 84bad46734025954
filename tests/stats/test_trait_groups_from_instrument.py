"""Trait groups come from the instrument's profile questionnaire, never from a list in code:
"any diagnosis" vs none, each condition with enough participants, and "prefer not to say" a
level of its own, never pooled with "none"."""

from dataclasses import replace

from annotations.seeding import demo_conversations
from attunebench.baselines import all_baseline_runs
from attunebench.instrument import (
    default_instrument,
    default_instrument_data,
    load_instrument,
)
from attunebench.records import Conversation, Metadata, ParticipantProfile
from attunebench.scoring import score_conversation
from attunebench.stats import (
    StatsConfig,
    compute_statistics,
    conversation_attributes,
    score_frame,
    trait_groups_from_profile,
)


def _profile_with_conditions(*conditions: str):
    data = default_instrument_data()
    (question,) = [q for q in data["profile"]["questions"] if q["id"] == "diagnoses"]
    question["options"] = [
        {"id": "none", "label": "None", "role": "reference", "exclusive": True},
        *({"id": c, "label": c.title()} for c in conditions),
        {
            "id": "prefer_not_to_say",
            "label": "Prefer not to say",
            "role": "withheld",
            "exclusive": True,
        },
    ]
    return load_instrument(data).profile


def _person(cid: str, *traits: str) -> Conversation:
    profile = ParticipantProfile(participant_id=cid, traits=traits)
    return Conversation(
        cid, metadata=Metadata(model="m", category="work"), participant_profile=profile
    )


def test_groups_follow_the_instrument_and_prefer_not_to_say_stays_apart():
    profile = _profile_with_conditions("insomnia", "migraine")
    people = [_person(f"i{n}", "diagnosis:insomnia") for n in range(3)]
    people += [
        _person("m0", "diagnosis:migraine"),
        _person("n0", "diagnosis:none"),
        _person("p0", "diagnosis:prefer_not_to_say"),
        _person("x0", "student"),
    ]
    groups = trait_groups_from_profile(profile, people, min_participants=3)
    assert set(groups.groups) == {"any diagnosis", "insomnia"}  # migraine: too few people
    table = conversation_attributes(people, groups).set_index("conversation_id")
    # x0 answered no diagnosis option (an optional question skipped): unknown, not "none".
    levels = table["trait:any diagnosis"]
    assert list(levels.iloc[:6]) == ["any diagnosis"] * 4 + ["none", "Prefer not to say"]
    assert levels.isna().loc["x0"]
    assert table.loc["m0", "trait:insomnia"] is not None
    assert str(table.loc["p0", "trait:insomnia"]) == "Prefer not to say"


def test_a_statistics_run_takes_its_trait_groups_from_the_instrument():
    instrument = default_instrument()
    conversations = list(demo_conversations(instrument, 120, seed=5))
    by_id = {c.conversation_id: c for c in conversations}
    scores = [
        score_conversation(by_id[r.conversation_id], r) for r in all_baseline_runs(conversations)
    ]
    # Rename a condition in the instrument: the columns follow, with no code change.
    profile = instrument.profile
    renamed = replace(
        profile,
        questions=tuple(
            replace(q, trait_prefix="dx") if q.trait_prefix else q for q in profile.questions
        ),
    )
    frame = score_frame(scores, conversations, profile=instrument.profile)
    traits = sorted(c for c in frame.columns if c.startswith("trait:"))
    assert "trait:any diagnosis" in traits and "trait:anxiety" in traits
    assert set(frame["trait:any diagnosis"].dropna()) == {
        "any diagnosis",
        "none",
        "Prefer not to say",
    }
    stats = compute_statistics(frame, StatsConfig(n_resamples=100, n_permutations=20, seed=1))
    levels = {(s.grouping, s.level) for s in stats.subgroups}
    assert ("trait:any diagnosis", "any diagnosis") in levels
    assert ("trait:any diagnosis", "Prefer not to say") in levels
    assert all(s.reference == "none" for s in stats.subgroups if s.grouping.startswith("trait:"))
    # An instrument whose trait prefix matches no participant's traits gives only the pooled
    # group (no list in code fills it); nobody answered its question, so nobody is "none".
    other = score_frame(scores, conversations, profile=renamed)
    assert [c for c in other.columns if c.startswith("trait:")] == ["trait:any diagnosis"]
    assert other["trait:any diagnosis"].isna().all()
