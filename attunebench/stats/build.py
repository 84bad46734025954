"""Build the statistics' inputs from the engine's records (the caller joins, we define how).

- ``score_frame``: the score frame of ``contract`` from ``ConversationScores`` (via
  ``scoring.per_conversation_frame``) and the conversations they score.
- ``participant_answers`` / ``draft_judge_answers``: rows of the ``agreement`` contract.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import pandas as pd

from attunebench.instrument import default_instrument
from attunebench.language import conversation_language
from attunebench.profile import Profile
from attunebench.records import Conversation
from attunebench.run_output import RunOutput
from attunebench.scoring import (
    ConversationScores,
    human_ground_truth,
    is_applicable,
    per_conversation_frame,
)
from attunebench.stats.agreement import ANSWER_COLUMNS, PARTICIPANT
from attunebench.stats.contract import (
    AXES,
    LANGUAGE_COLUMN,
    ORIGINAL_MODEL_COLUMN,
    PARSE_PREFIX,
    PARTICIPANT_COLUMN,
    TOPIC_COLUMN,
    TRAIT_PREFIX,
    TRAIT_REFERENCE,
)

HUMAN_EDITED = "human_edited"
ANY_CONDITION = "any diagnosis"
# A condition gets a group of its own only with at least this many participants; fewer give
# intervals too wide to read (they still count towards "any diagnosis").
MIN_TRAIT_PARTICIPANTS = 10


@dataclass(frozen=True)
class TraitGroups:
    """The ``trait:<group>`` columns: each group's member traits, and traits that are a level of
    their own (``withheld``: "prefer not to say"), never pooled with the reference "none".

    ``prefixes`` names, per group, the trait prefix of the question it comes from
    (``"diagnosis:"``): a participant with no trait of that prefix chose no option of the
    question (an optional question they skipped), so their level is unknown, not "none".
    Groups given without a question (plain trait lists) have no prefix: there "none" is
    simply "none of the group's traits".
    """

    groups: Mapping[str, frozenset[str]]
    withheld: Mapping[str, str] = field(default_factory=dict)  # trait -> its level's name
    prefixes: Mapping[str, str] = field(default_factory=dict)  # group -> "<trait prefix>:"


def trait_groups_from_profile(
    profile: Profile | None,
    conversations: Iterable[Conversation],
    min_participants: int = MIN_TRAIT_PARTICIPANTS,
) -> TraitGroups:
    """Trait groups from the instrument's trait questions, never from a list in code: for each
    question with a ``trait_prefix``, "any diagnosis" (every condition: the options that are not
    the reference or withheld, plus prefixed traits of imported records kept as text), and
    each condition that at least ``min_participants`` participants report."""
    groups: dict[str, frozenset[str]] = {}
    withheld: dict[str, str] = {}
    prefixes: dict[str, str] = {}
    if profile is None:
        return TraitGroups(groups)
    seen: dict[str, set[str]] = {}
    for conversation in conversations:
        person = conversation.participant_profile
        if person is None:
            continue
        who = person.participant_id or conversation.conversation_id
        for trait in person.traits:
            seen.setdefault(trait.casefold(), set()).add(who)
    for question in profile.trait_questions:
        prefix = f"{question.trait_prefix}:".casefold()
        special = {f"{prefix}{o.id}".casefold(): o for o in question.options if o.role}
        withheld |= {t: o.label for t, o in special.items() if o.role == "withheld"}
        conditions = [f"{prefix}{o.id}".casefold() for o in question.options if not o.role]
        conditions += sorted(
            t for t in seen if t.startswith(prefix) and t not in special and t not in conditions
        )
        pooled = ANY_CONDITION if len(profile.trait_questions) == 1 else f"any {question.id}"
        groups[pooled] = frozenset(conditions)
        prefixes[pooled] = prefix
        for trait in conditions:
            if len(seen.get(trait, ())) >= min_participants:
                groups[trait[len(prefix) :]] = frozenset({trait})
                prefixes[trait[len(prefix) :]] = prefix
    return TraitGroups(groups, withheld, prefixes)


def _trait_value(
    traits: set[str],
    group: str,
    members: frozenset[str],
    every: set[str],
    withheld: Mapping[str, str],
    prefix: str = "",
) -> str | None:
    if prefix and not any(t.startswith(prefix) for t in traits):
        # No option of the question chosen (skipped): unknown. The reference group is those
        # who chose "none", never those who did not say.
        return None
    if traits & members:
        return group
    if traits & every:
        return None  # another condition: neither this group nor its reference
    level = next((withheld[t] for t in sorted(traits) if t in withheld), None)
    return level or TRAIT_REFERENCE


def conversation_attributes(
    conversations: Iterable[Conversation],
    trait_groups: Mapping[str, Iterable[str]] | TraitGroups,
) -> pd.DataFrame:
    """One row per conversation: ``conversation_id``, ``participant_id``, ``topic``,
    ``original_model``, ``language`` and a ``trait:<group>`` column per trait group (the contract's values; traits match ignoring case).
    A conversation without a participant profile has no trait values; its participant is
    itself (``participant_id``: the profile's id, else the conversation's)."""
    if not isinstance(trait_groups, TraitGroups):
        trait_groups = TraitGroups({n: frozenset(m) for n, m in trait_groups.items()})
    groups = {
        name: frozenset(t.casefold() for t in members)
        for name, members in trait_groups.groups.items()
    }
    withheld = {t.casefold(): level for t, level in trait_groups.withheld.items()}
    prefixes = {name: p.casefold() for name, p in trait_groups.prefixes.items()}
    every = set().union(*groups.values()) if groups else set()
    rows = []
    for conversation in conversations:
        profile = conversation.participant_profile
        traits = {t.casefold() for t in profile.traits} if profile else set()
        row = {
            "conversation_id": conversation.conversation_id,
            # The cluster of the subgroup bootstrap; a conversation without a known participant
            # is its own cluster (counted as one participant).
            PARTICIPANT_COLUMN: (profile.participant_id if profile else None)
            or conversation.conversation_id,
            TOPIC_COLUMN: conversation.metadata.category,
            ORIGINAL_MODEL_COLUMN: conversation.metadata.model,
            LANGUAGE_COLUMN: conversation_language(conversation),
        }
        for name, members in groups.items():
            value = (
                _trait_value(traits, name, members, every, withheld, prefixes.get(name, ""))
                if profile
                else None
            )
            row[f"{TRAIT_PREFIX}{name}"] = value
        rows.append(row)
    columns = [
        "conversation_id",
        PARTICIPANT_COLUMN,
        TOPIC_COLUMN,
        ORIGINAL_MODEL_COLUMN,
        LANGUAGE_COLUMN,
    ]
    columns += [f"{TRAIT_PREFIX}{name}" for name in groups]
    return pd.DataFrame(rows, columns=columns).astype("string")


def score_frame(
    scores: Iterable[ConversationScores],
    conversations: Iterable[Conversation],
    trait_groups: Mapping[str, Iterable[str]] | TraitGroups | None = None,
    profile: Profile | None = None,
) -> pd.DataFrame:
    """The contract's score frame: ids, axes, parse-failure counts and the grouping columns.

    Trait groups come from ``profile`` (the instrument's questionnaire; the default
    instrument's when neither it nor explicit ``trait_groups`` is given).
    A scored conversation missing from ``conversations`` keeps missing grouping values.
    """
    return with_attributes(score_rows(scores), conversations, trait_groups, profile)


def score_rows(scores: Iterable[ConversationScores]) -> pd.DataFrame:
    """The score frame without its grouping columns: ids, axes and parse-failure counts (what
    a standing leaderboard keeps per conversation)."""
    return score_columns(per_conversation_frame(scores))


def score_columns(per_conversation: pd.DataFrame) -> pd.DataFrame:
    """``score_rows`` of a per-conversation table as ``write_scores`` stores it (Parquet)."""
    scored = per_conversation.rename(columns={"em_model": "model", "composite_score": "composite"})
    keep = ["model", "mode", "conversation_id", *AXES]
    keep += [c for c in scored.columns if c.startswith(PARSE_PREFIX)]
    return scored[keep]


def with_attributes(
    rows: pd.DataFrame,
    conversations: Iterable[Conversation],
    trait_groups: Mapping[str, Iterable[str]] | TraitGroups | None = None,
    profile: Profile | None = None,
) -> pd.DataFrame:
    """``score_rows`` + the conversations' grouping columns = the contract's score frame."""
    conversations = list(conversations)
    if trait_groups is None:
        profile = profile or default_instrument().profile
        trait_groups = trait_groups_from_profile(profile, conversations)
    attributes = conversation_attributes(conversations, trait_groups)
    frame = rows.merge(attributes, on="conversation_id", how="left")
    return frame.astype({"model": "string", "mode": "string", "conversation_id": "string"})


def participant_answers(conversations: Iterable[Conversation]) -> pd.DataFrame:
    """The participant's answers about their own edited reply, as agreement rows.

    The edited reply is the participant's idea of the right reply, so their answer for it is
    what they wanted: ``preferredBehavior``, falling back to ``observedBehavior`` (the
    scorer's human ground truth). Only turns with an edited reply and applicable questions.
    """
    rows = [
        (
            conversation.conversation_id,
            turn.turn_number,
            judgement.question_id,
            HUMAN_EDITED,
            PARTICIPANT,
            answer,
        )
        for conversation in conversations
        for turn in conversation.turns
        if turn.annotations.human_edited
        for judgement in turn.annotations.binary_judgements
        if is_applicable(judgement) and (answer := human_ground_truth(judgement)) in ("yes", "no")
    ]
    return pd.DataFrame(rows, columns=list(ANSWER_COLUMNS))


def draft_judge_answers(runs: Iterable[RunOutput]) -> pd.DataFrame:
    """Each judge's yes/no answers on the models' drafts (``em_draft_binary_assessment_by_model``),
    as agreement rows with target ``"<model>|<mode>"``: the between-judge part of reliability."""
    rows = [
        (
            run.conversation_id,
            turn.turn_number,
            question_id,
            f"{run.em_model}|{run.mode}",
            judge,
            answer,
        )
        for run in runs
        for turn in run.turns
        for judge, answers in (turn.em_draft_binary_assessment_by_model or {}).items()
        for question_id, answer in answers.items()
    ]
    return pd.DataFrame(rows, columns=list(ANSWER_COLUMNS))
