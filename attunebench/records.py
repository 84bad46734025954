"""Typed records of one AttuneBench conversation (format spec, section 1).

These are the in-memory shape shared by the reader, the writer, the Django import/export
commands and the evaluation engine. They are plain frozen dataclasses so the pure core never
needs Django. Unknown keys of the open objects (``metadata``, ``participant_profile``, ...) are
kept in ``other`` so a round trip through our database loses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JsonDict = dict[str, Any]


@dataclass(frozen=True)
class MoodTag:
    emotion: str
    intensity: int | None


@dataclass(frozen=True)
class BinaryJudgement:
    """One behaviour question at one turn. Values are "yes", "no", "na" or None (blank)."""

    question_id: str
    llm_value: str | None = None
    observed: str | None = None
    preferred: str | None = None


@dataclass(frozen=True)
class PairwiseComparison:
    """An A/B choice. ``response_a``/``response_b`` are original, alternate or human."""

    question_id: str
    response_a: str
    response_b: str
    winner: str | None


@dataclass(frozen=True)
class TurnAnnotations:
    binary_judgements: tuple[BinaryJudgement, ...] = ()
    llm_improved: str | None = None
    human_edited: str | None = None
    pairwise_comparisons: tuple[PairwiseComparison, ...] = ()
    selected_pairwise_questions: tuple[str, ...] = ()
    other: JsonDict = field(default_factory=dict)


@dataclass(frozen=True)
class Turn:
    turn_number: int
    user_message: str
    llm_response: str
    mood_tags: tuple[MoodTag, ...] = ()
    annotations: TurnAnnotations = field(default_factory=TurnAnnotations)
    other: JsonDict = field(default_factory=dict)


@dataclass(frozen=True)
class Panas:
    """PANAS answers. Totals are always present here: the reader derives them from the items."""

    items: dict[str, int]
    total_positive: int
    total_negative: int
    other: JsonDict = field(default_factory=dict)


@dataclass(frozen=True)
class FourBranchScores:
    perceiving: int | None = None
    facilitating: int | None = None
    understanding: int | None = None
    managing: int | None = None

    def as_dict(self) -> dict[str, int | None]:
        return {
            "perceiving": self.perceiving,
            "facilitating": self.facilitating,
            "understanding": self.understanding,
            "managing": self.managing,
        }


@dataclass(frozen=True)
class ConversationWide:
    looking_for: tuple[str, ...] = ()
    emotion_clarity: str | None = None
    model_fit: str | None = None
    what_felt_off: tuple[str, ...] = ()
    four_branch: FourBranchScores | None = None
    other: JsonDict = field(default_factory=dict)


@dataclass(frozen=True)
class ParticipantProfile:
    participant_id: str | None = None
    schema_version: str | None = None
    age: int | None = None
    traits: tuple[str, ...] = ()
    goals: tuple[str, ...] = ()
    responses: JsonDict = field(default_factory=dict)
    extra: JsonDict | None = None  # the profile's own "extra" key
    other: JsonDict = field(default_factory=dict)


@dataclass(frozen=True)
class Metadata:
    model: str | None = None
    provider: str | None = None
    model_version: str | None = None
    timestamp: str | None = None
    category: str | None = None
    subtopic: str | None = None
    other: JsonDict = field(default_factory=dict)


@dataclass(frozen=True)
class Conversation:
    conversation_id: str
    metadata: Metadata = field(default_factory=Metadata)
    participant_profile: ParticipantProfile | None = None
    pre_panas: Panas | None = None
    post_panas: Panas | None = None
    conversation_wide: ConversationWide | None = None
    turns: tuple[Turn, ...] = ()
    other: JsonDict = field(default_factory=dict)
