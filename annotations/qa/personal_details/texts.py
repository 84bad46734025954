"""The free texts of an AttuneBench record, named by path, and the record with some replaced. Pure.

Paths use the format's names, like the correction layer's (``correction_fields.py``):

    turns[turnNumber=2].userMessage
    turns[turnNumber=2].llmResponse
    turns[turnNumber=2].annotations.alternateResponses.humanEdited   (the participant's edit)
    turns[turnNumber=2].annotations.alternateResponses.llmImproved
    metadata.category_other                       ("something else" topic)
    conversationWideQuestions.q1_lookingFor_other (and the other "_other" answers)
    participantProfile.responses.<key>            (free-text profile and survey answers)

Every string a release writes from participant or model words is one of these, so a scan of
them is a scan of everything a release could leak.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from attunebench import records

_TURN = re.compile(r"^turns\[turnNumber=(\d+)\]\.(.+)$")
_TURN_FIELDS = {
    "userMessage": "user_message",
    "llmResponse": "llm_response",
    "annotations.alternateResponses.humanEdited": "human_edited",
    "annotations.alternateResponses.llmImproved": "llm_improved",
}
# Texts the participant wrote (the others are the model's): the benchmark counts them apart.
PARTICIPANT_FIELDS = ("userMessage", "humanEdited", "_other", "participantProfile.")


def is_participant_text(path: str) -> bool:
    return any(marker in path for marker in PARTICIPANT_FIELDS)


def record_texts(record: records.Conversation) -> dict[str, str]:
    """Every non-empty free text of the record, by path, in reading order."""
    texts: dict[str, str] = {}
    category = record.metadata.other.get("category_other")
    if isinstance(category, str):
        texts["metadata.category_other"] = category
    profile = record.participant_profile
    if profile is not None:
        for key, value in profile.responses.items():
            if isinstance(value, str) and _is_free_text(key, value):
                texts[f"participantProfile.responses.{key}"] = value
    for turn in record.turns:
        prefix = f"turns[turnNumber={turn.turn_number}]"
        texts[f"{prefix}.userMessage"] = turn.user_message
        texts[f"{prefix}.llmResponse"] = turn.llm_response
        if turn.annotations.human_edited:
            texts[f"{prefix}.annotations.alternateResponses.humanEdited"] = (
                turn.annotations.human_edited
            )
        if turn.annotations.llm_improved:
            texts[f"{prefix}.annotations.alternateResponses.llmImproved"] = (
                turn.annotations.llm_improved
            )
    wide = record.conversation_wide
    if wide is not None:
        for key, value in wide.other.items():
            if key.endswith("_other") and isinstance(value, str):
                texts[f"conversationWideQuestions.{key}"] = value
    return {path: text for path, text in texts.items() if text}


def _is_free_text(key: str, value: str) -> bool:
    """A profile answer is free text when it is an "_other" text or reads as words (option ids
    are short lowercase identifiers and must stay as they are)."""
    return key.endswith("_other") or " " in value.strip()


def replace_texts(record: records.Conversation, new: Mapping[str, str]) -> records.Conversation:
    """The record with the texts at these paths replaced (paths from ``record_texts``)."""
    if not new:
        return record
    metadata_other = dict(record.metadata.other)
    responses = dict(record.participant_profile.responses) if record.participant_profile else {}
    wide_other = dict(record.conversation_wide.other) if record.conversation_wide else {}
    turn_changes: dict[int, dict[str, str]] = {}
    for path, text in new.items():
        if path == "metadata.category_other":
            metadata_other["category_other"] = text
        elif path.startswith("participantProfile.responses."):
            responses[path.removeprefix("participantProfile.responses.")] = text
        elif path.startswith("conversationWideQuestions."):
            wide_other[path.removeprefix("conversationWideQuestions.")] = text
        else:
            match = _TURN.match(path)
            if match is None or match.group(2) not in _TURN_FIELDS:
                raise ValueError(f"{path!r} names no free text of a record")
            turn_changes.setdefault(int(match.group(1)), {})[_TURN_FIELDS[match.group(2)]] = text
    turns = tuple(
        _replace_turn(turn, turn_changes.get(turn.turn_number, {})) for turn in record.turns
    )
    profile = record.participant_profile
    wide = record.conversation_wide
    return replace(
        record,
        metadata=replace(record.metadata, other=metadata_other),
        participant_profile=replace(profile, responses=responses) if profile else None,
        conversation_wide=replace(wide, other=wide_other) if wide else None,
        turns=turns,
    )


def _replace_turn(turn: records.Turn, changes: dict[str, str]) -> records.Turn:
    if not changes:
        return turn
    annotations = turn.annotations
    if "human_edited" in changes or "llm_improved" in changes:
        annotations = replace(
            annotations,
            human_edited=changes.get("human_edited", annotations.human_edited),
            llm_improved=changes.get("llm_improved", annotations.llm_improved),
        )
    return replace(
        turn,
        user_message=changes.get("user_message", turn.user_message),
        llm_response=changes.get("llm_response", turn.llm_response),
        annotations=annotations,
    )
