"""The free texts of an AttuneBench record, named by path, and the record with some replaced. Pure.

The texts are found by walking what the release writer serialises (``conversation_to_dict``):
every string of a conversation file is a text to scan unless it stands at a place the writer
fills with no one's words (ids, the model's name and version, times, and values the reader
checks against a vocabulary: PANAS moods, yes/no/na judgements, pairwise labels, question ids).
So a field the writer gains, or an imported key it writes (``metadata.other``,
``participant_profile.extra``/``other``, a turn's or annotation's ``other``, a record's unknown
keys), is scanned without anyone listing it here; ``replace_texts`` raises on a path it cannot
place, so such a field can fail a build but never leak through one.

Paths use the format's names, like the correction layer's (``correction_fields.py``):

    turns[turnNumber=2].userMessage
    turns[turnNumber=2].llmResponse
    turns[turnNumber=2].annotations.alternateResponses.humanEdited   (the participant's edit)
    turns[turnNumber=2].annotations.alternateResponses.llmImproved
    turns[turnNumber=2].annotations.note                     (an imported key, at any depth)
    metadata.category_other                       ("something else" topic)
    conversationWideQuestions.q1_lookingFor_other (and the other "_other" answers)
    participantProfile.responses.<key>            (every profile and survey answer, one word too)
    participantProfile.extra.<key>, participantProfile.traits[0]
    <key>["a key with spaces"][2]                 (keys other than [A-Za-z0-9_-] are quoted)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from attunebench import records
from attunebench.writer import conversation_to_dict

# Texts the participant wrote (the others are the model's): the benchmark counts them apart.
PARTICIPANT_FIELDS = ("userMessage", "humanEdited", "_other", "participantProfile.")

# Places (paths with "[]" for a turn or a list index) where the writer puts no one's words.
# Everything else a conversation file holds as a string is scanned.
_STRUCTURED = frozenset(
    {
        "conversationId",
        *(
            f"metadata.{key}"
            for key in (
                "conversationId",
                "model",
                "provider",
                "model_version",
                "timestamp",
                "turnCount",
            )
        ),
        "participantProfile.schema_version",
        "participantProfile.participant_id",  # the release pseudonym
        "participantProfile.age",
        *(
            f"{phase}.{key}"
            for phase in ("prePanas", "postPanas")
            for key in ("items", "totalPositiveAffect", "totalNegativeAffect")
        ),
        "conversationWideQuestions.fourBranchScores",
        "turns[].turnNumber",
        "turns[].moodShiftTags",
        "turns[].annotations.binaryJudgements",
        "turns[].annotations.pairwiseComparisons",
        "turns[].annotations.selectedPairwiseQuestions",
    }
)
# Top-level sections in reading order (placeholders are numbered by first appearance): the
# topic, the profile, the chat, the answers after it, then whatever else the record carries.
_READING_ORDER = {
    "metadata": 0,
    "participant_profile": 1,
    "prePanas": 2,
    "turns": 3,
    "postPanas": 4,
    "conversationWideQuestions": 5,
}
_PROFILE = "participantProfile"  # the path's name of the file's "participant_profile"
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_\-]+")


def is_participant_text(path: str) -> bool:
    return any(marker in path for marker in PARTICIPANT_FIELDS)


def record_texts(record: records.Conversation) -> dict[str, str]:
    """Every non-empty free text the record's conversation file carries, by path, in reading
    order."""
    data = conversation_to_dict(record)
    texts: dict[str, str] = {}
    for key in sorted(data, key=lambda k: _READING_ORDER.get(k, len(_READING_ORDER))):
        if key == "turns":
            for turn in data[key]:
                path = _turn_path(turn["turnNumber"])
                texts.update(_strings(turn, path, "turns[]"))
        else:
            step = _top_step(key)
            texts.update(_strings(data[key], step, step))
    return {path: text for path, text in texts.items() if text}


def _strings(value: Any, path: str, place: str) -> Iterator[tuple[str, str]]:
    """The strings of a JSON value outside the structured places, by path. ``place`` is the
    path with turn numbers and list indexes left out, what ``_STRUCTURED`` names."""
    if place in _STRUCTURED:
        return
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, _key_step(path, str(key)), _key_step(place, str(key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, f"{path}[{index}]", f"{place}[]")


def _turn_path(turn_number: int) -> str:
    return f"turns[turnNumber={turn_number}]"


def _top_step(key: str) -> str:
    if key == "participant_profile":
        return _PROFILE
    if key == _PROFILE:  # a record's own unknown key of that name: quoted, so paths stay unique
        return f"[{json.dumps(key, ensure_ascii=False)}]"
    return _key_step("", key)


def _key_step(path: str, key: str) -> str:
    if not _PLAIN_KEY.fullmatch(key):
        return f"{path}[{json.dumps(key, ensure_ascii=False)}]"
    return f"{path}.{key}" if path else key


def replace_texts(record: records.Conversation, new: Mapping[str, str]) -> records.Conversation:
    """The record with the texts at these paths replaced (paths from ``record_texts``)."""
    if not new:
        return record
    replacer = _Replacer(new)
    metadata = record.metadata
    profile = record.participant_profile
    wide = record.conversation_wide
    changed = replace(
        record,
        metadata=replace(
            metadata,
            category=replacer.text("metadata.category", metadata.category),
            subtopic=replacer.text("metadata.subtopic", metadata.subtopic),
            other=replacer.object(metadata.other, "metadata"),
        ),
        participant_profile=None if profile is None else _replace_profile(profile, replacer),
        pre_panas=_replace_panas(record.pre_panas, "prePanas", replacer),
        post_panas=_replace_panas(record.post_panas, "postPanas", replacer),
        conversation_wide=None if wide is None else _replace_wide(wide, replacer),
        turns=tuple(_replace_turn(turn, replacer) for turn in record.turns),
        other={key: replacer.json(value, _top_step(key)) for key, value in record.other.items()},
    )
    unplaced = sorted(set(new) - replacer.used)
    if unplaced:
        raise ValueError(f"{unplaced[0]!r} names no free text of a record")
    return changed


class _Replacer:
    """Replaces the strings whose paths (named as ``record_texts`` names them) are in ``new``,
    remembering which paths it placed."""

    def __init__(self, new: Mapping[str, str]) -> None:
        self.new = new
        self.used: set[str] = set()

    def text(self, path: str, value: str | None) -> str | None:
        if isinstance(value, str) and path in self.new:
            self.used.add(path)
            return self.new[path]
        return value

    def json(self, value: Any, path: str) -> Any:
        if isinstance(value, str):
            return self.text(path, value)
        if isinstance(value, dict):
            return self.object(value, path)
        if isinstance(value, list):
            return [self.json(item, f"{path}[{index}]") for index, item in enumerate(value)]
        return value

    def object(self, value: dict[str, Any], path: str) -> dict[str, Any]:
        return {key: self.json(item, _key_step(path, str(key))) for key, item in value.items()}

    def strings(self, values: tuple[str, ...], path: str) -> tuple[str, ...]:
        return tuple(self.json(list(values), path))


def _replace_profile(
    profile: records.ParticipantProfile, replacer: _Replacer
) -> records.ParticipantProfile:
    return replace(
        profile,
        traits=replacer.strings(profile.traits, f"{_PROFILE}.traits"),
        goals=replacer.strings(profile.goals, f"{_PROFILE}.goals"),
        responses=replacer.object(profile.responses, f"{_PROFILE}.responses"),
        extra=None
        if profile.extra is None
        else replacer.object(profile.extra, f"{_PROFILE}.extra"),
        other=replacer.object(profile.other, _PROFILE),
    )


def _replace_panas(
    panas: records.Panas | None, path: str, replacer: _Replacer
) -> records.Panas | None:
    return None if panas is None else replace(panas, other=replacer.object(panas.other, path))


def _replace_wide(wide: records.ConversationWide, replacer: _Replacer) -> records.ConversationWide:
    path = "conversationWideQuestions"
    return replace(
        wide,
        looking_for=replacer.strings(wide.looking_for, f"{path}.q1_lookingFor"),
        emotion_clarity=replacer.text(f"{path}.q2_emotionClarity", wide.emotion_clarity),
        model_fit=replacer.text(f"{path}.q3_modelFit", wide.model_fit),
        what_felt_off=replacer.strings(wide.what_felt_off, f"{path}.q3_followUp_whatFeltOff"),
        other=replacer.object(wide.other, path),
    )


def _replace_turn(turn: records.Turn, replacer: _Replacer) -> records.Turn:
    path = _turn_path(turn.turn_number)
    annotations = turn.annotations
    alternates = f"{path}.annotations.alternateResponses"
    return replace(
        turn,
        user_message=replacer.text(f"{path}.userMessage", turn.user_message) or "",
        llm_response=replacer.text(f"{path}.llmResponse", turn.llm_response) or "",
        annotations=replace(
            annotations,
            llm_improved=replacer.text(f"{alternates}.llmImproved", annotations.llm_improved),
            human_edited=replacer.text(f"{alternates}.humanEdited", annotations.human_edited),
            other=replacer.object(annotations.other, f"{path}.annotations"),
        ),
        other=replacer.object(turn.other, path),
    )
