"""Build the statistics' inputs from the engine's records (the caller joins, we define how).

- ``score_frame``: the score frame of ``contract`` from ``ConversationScores`` (via
  ``scoring.per_conversation_frame``) and the conversations they score.
- ``participant_answers`` / ``draft_judge_answers``: rows of the ``agreement`` contract.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pandas as pd

from evaluation.benchmark.records import Conversation
from evaluation.benchmark.run_output import RunOutput
from evaluation.benchmark.scoring import (
    ConversationScores,
    human_ground_truth,
    is_applicable,
    per_conversation_frame,
)
from evaluation.benchmark.stats.agreement import ANSWER_COLUMNS, PARTICIPANT
from evaluation.benchmark.stats.contract import (
    AXES,
    ORIGINAL_MODEL_COLUMN,
    PARSE_PREFIX,
    TOPIC_COLUMN,
    TRAIT_PREFIX,
    TRAIT_REFERENCE,
)

# The self-reported diagnoses of the participant profile (``traits``), grouped as the paper
# reports them; "any diagnosis" pools them. A caller with other traits passes its own groups.
DEFAULT_TRAIT_GROUPS: dict[str, tuple[str, ...]] = {
    "anxiety/depression": ("diagnosis:anxiety_depression",),
    "ASD/ADHD": ("diagnosis:asd_adhd",),
    "any diagnosis": ("diagnosis:anxiety_depression", "diagnosis:asd_adhd"),
}
HUMAN_EDITED = "human_edited"


def _trait_value(traits: set[str], group: str, members: set[str], every: set[str]) -> str | None:
    if traits & members:
        return group
    return TRAIT_REFERENCE if not traits & every else None


def conversation_attributes(
    conversations: Iterable[Conversation],
    trait_groups: Mapping[str, Iterable[str]] = DEFAULT_TRAIT_GROUPS,
) -> pd.DataFrame:
    """One row per conversation: ``conversation_id``, ``topic``, ``original_model`` and a
    ``trait:<group>`` column per trait group (the contract's values; traits match ignoring case).
    A conversation without a participant profile has no trait values."""
    groups = {name: {t.casefold() for t in members} for name, members in trait_groups.items()}
    every = set().union(*groups.values()) if groups else set()
    rows = []
    for conversation in conversations:
        profile = conversation.participant_profile
        traits = {t.casefold() for t in profile.traits} if profile else set()
        row = {
            "conversation_id": conversation.conversation_id,
            TOPIC_COLUMN: conversation.metadata.category,
            ORIGINAL_MODEL_COLUMN: conversation.metadata.model,
        }
        for name, members in groups.items():
            value = _trait_value(traits, name, members, every) if profile else None
            row[f"{TRAIT_PREFIX}{name}"] = value
        rows.append(row)
    columns = ["conversation_id", TOPIC_COLUMN, ORIGINAL_MODEL_COLUMN]
    columns += [f"{TRAIT_PREFIX}{name}" for name in groups]
    return pd.DataFrame(rows, columns=columns).astype("string")


def score_frame(
    scores: Iterable[ConversationScores],
    conversations: Iterable[Conversation],
    trait_groups: Mapping[str, Iterable[str]] = DEFAULT_TRAIT_GROUPS,
) -> pd.DataFrame:
    """The contract's score frame: ids, axes, parse-failure counts and the grouping columns.

    A scored conversation missing from ``conversations`` keeps missing grouping values.
    """
    scored = per_conversation_frame(scores).rename(
        columns={"em_model": "model", "composite_score": "composite"}
    )
    keep = ["model", "mode", "conversation_id", *AXES]
    keep += [c for c in scored.columns if c.startswith(PARSE_PREFIX)]
    attributes = conversation_attributes(conversations, trait_groups)
    frame = scored[keep].merge(attributes, on="conversation_id", how="left")
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
