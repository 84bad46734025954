"""The input contract of the statistics: one tidy row per (model, mode, conversation).

Columns (the "score frame"):

- ``model`` (str): the evaluated model; names starting with ``baseline/`` are the reference
  baselines (reported, never ranked or tested).
- ``mode`` (str): ``default``, ``verbose``, ``omniscient``, ``verbose_omniscient``.
- ``conversation_id`` (str). ``(model, mode, conversation_id)`` is unique.
- The axis columns (float, NaN = undefined for that conversation): ``emotion_recognition``,
  ``behaviour_classification``, ``preference_prediction``, ``judged_response_quality``,
  ``outcome_prediction`` on 0..1, and ``composite`` on 0..100 (the scorer's
  ``composite_score``).
- Grouping columns, one value per conversation (the same in every row of that conversation;
  missing = not in any group of that column): ``topic`` (``metadata.category``),
  ``original_model`` (``metadata.model``, the model the participant talked to), and one
  ``trait:<group>`` column per participant trait group whose value is the group's name for a
  participant with a trait of the group, ``"none"`` for a participant with no trait of any
  group, and missing otherwise (so each group is compared with the participants who report
  none of the traits, not with those of another group). For a group from a profile question,
  a participant who chose no option of that question (skipped it) is missing too: "none"
  means they chose "none", not that they did not say. ``language`` (the conversation's BCP 47
  primary tag, ``attunebench.language``; "en" for data from before languages).
- Optional ``participant_id`` (str, one value per conversation): the cluster of the subgroup
  bootstrap; missing means the conversation is its own participant.
- Optional parse-failure counts: ``parse_<call type>_calls`` and ``parse_<call type>_failures``
  (integers, as ``scoring.per_conversation_frame`` writes them).

``build.score_frame`` builds this frame from ``ConversationScores`` and ``Conversation`` records.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

AXES: tuple[str, ...] = (
    "emotion_recognition",
    "behaviour_classification",
    "preference_prediction",
    "judged_response_quality",
    "outcome_prediction",
    "composite",
)
# The paper's four axes (AttuneBench's claims: pairs told apart, rankings largely independent).
PAPER_AXES: tuple[str, ...] = AXES[:4]
# This platform's addition: the post-conversation pillar of the composite, reported beside the
# paper's axes (mean, interval, subgroups, mode deltas) but, by default, neither ranked nor
# tested, so the paper's claims are checked on the paper's axes (``StatsConfig.rank_outcome``).
PLATFORM_AXES: tuple[str, ...] = ("outcome_prediction",)
# The composite is a weighted sum of the others, so its ranking is not independent of theirs:
# rank independence (Kendall's tau and W) runs over the paper's four axes by default.
RANKED_AXES: tuple[str, ...] = PAPER_AXES


def independence_axes(include_outcome: bool = False) -> tuple[str, ...]:
    """The axes whose rankings are compared (Kendall's tau and W)."""
    return PAPER_AXES + (PLATFORM_AXES if include_outcome else ())


def tested_axes(include_outcome: bool = False) -> tuple[str, ...]:
    """The axes with rank intervals and pair tests: the paper's four and the composite, in the
    order of ``AXES`` (outcome prediction too when asked)."""
    kept = set(independence_axes(include_outcome)) | {"composite"}
    return tuple(axis for axis in AXES if axis in kept)


AXIS_LABELS: dict[str, str] = {
    "emotion_recognition": "Emotion recognition",
    "behaviour_classification": "Behaviour classification",
    "preference_prediction": "Preference prediction",
    "judged_response_quality": "Judged response quality",
    "outcome_prediction": "Outcome prediction",
    "composite": "Composite",
}
AXIS_RANGES: dict[str, tuple[float, float]] = {
    axis: ((0.0, 100.0) if axis == "composite" else (0.0, 1.0)) for axis in AXES
}

ID_COLUMNS: tuple[str, ...] = ("model", "mode", "conversation_id")
TOPIC_COLUMN = "topic"
# Optional: who had the conversation. Subgroups resample participants (all their conversations
# together), since one participant's conversations are not independent evidence about the
# group; without the column every conversation is its own participant.
PARTICIPANT_COLUMN = "participant_id"
ORIGINAL_MODEL_COLUMN = "original_model"
LANGUAGE_COLUMN = "language"
TRAIT_PREFIX = "trait:"
TRAIT_REFERENCE = "none"
PARSE_PREFIX = "parse_"
BASELINE_PREFIX = "baseline/"


@dataclass(frozen=True)
class SubgroupSpec:
    """One grouping column and what each of its levels is compared with.

    ``reference=None`` compares each level with all other conversations that have a value in
    the column ("the rest"); a named reference compares every other level with that level.
    """

    column: str
    reference: str | None = None


def default_subgroups(frame: pd.DataFrame) -> tuple[SubgroupSpec, ...]:
    """Trait columns against ``"none"``, then topic and original model against the rest, then
    language against the rest when the conversations are in more than one (a one-language
    run has no language comparison: its only level would face an empty rest)."""
    specs = [SubgroupSpec(c, TRAIT_REFERENCE) for c in frame.columns if c.startswith(TRAIT_PREFIX)]
    specs += [SubgroupSpec(c) for c in (TOPIC_COLUMN, ORIGINAL_MODEL_COLUMN) if c in frame.columns]
    if LANGUAGE_COLUMN in frame.columns and frame[LANGUAGE_COLUMN].nunique(dropna=True) > 1:
        specs.append(SubgroupSpec(LANGUAGE_COLUMN))
    return tuple(specs)


def is_baseline(model: str) -> bool:
    return model.startswith(BASELINE_PREFIX)


def validate_score_frame(frame: pd.DataFrame, subgroups: tuple[SubgroupSpec, ...] = ()) -> None:
    """Raise ``ValueError`` naming what breaks the contract (fail early, before any resampling)."""
    missing = [c for c in (*ID_COLUMNS, *AXES) if c not in frame.columns]
    missing += [s.column for s in subgroups if s.column not in frame.columns]
    if missing:
        raise ValueError(f"score frame lacks columns: {', '.join(missing)}")
    if frame[list(ID_COLUMNS)].isna().any().any():
        raise ValueError("score frame has missing model, mode or conversation_id values")
    if frame.duplicated(list(ID_COLUMNS)).any():
        raise ValueError("score frame has duplicate (model, mode, conversation_id) rows")
    for axis in AXES:
        if not pd.api.types.is_numeric_dtype(frame[axis]):
            raise ValueError(f"axis column {axis!r} is not numeric")
    constant = [s.column for s in subgroups]
    constant += [PARTICIPANT_COLUMN] if PARTICIPANT_COLUMN in frame.columns else []
    for column in constant:
        per_conversation = frame.groupby("conversation_id")[column].nunique(dropna=False)
        if (per_conversation > 1).any():
            raise ValueError(f"column {column!r} differs between rows of one conversation")
