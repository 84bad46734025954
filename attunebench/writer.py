"""Write typed records as AttuneBench ``conversation_<id>.json`` files (spec section 1).

Byte-stable: the same record always gives the same bytes (fixed key order for known keys,
sorted unknown keys, PANAS items in vocabulary order, two-space indent, UTF-8, final newline),
so release hashes only change when the data does.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import orjson

from attunebench.records import (
    Conversation,
    ConversationWide,
    Metadata,
    Panas,
    ParticipantProfile,
    Turn,
    TurnAnnotations,
)
from attunebench.vocabulary import PANAS_ITEMS


def conversation_filename(conversation_id: str) -> str:
    return f"conversation_{conversation_id}.json"


def encode_conversation(conversation: Conversation) -> bytes:
    """The file's bytes: UTF-8, two-space indent, final newline."""
    return encode_json(conversation_to_dict(conversation))


def dumps_conversation(conversation: Conversation) -> str:
    return encode_conversation(conversation).decode("utf-8")


def encode_json(data: Any) -> bytes:
    """Indented JSON bytes, identical to ``json.dumps(indent=2, ensure_ascii=False)``.

    orjson is about ten times faster than the standard library, whose encoder falls back to
    pure Python when indenting; that matters for releases of many thousand files. Integers
    beyond 64 bits (possible in imported free-form objects) fall back to the standard library.
    """
    try:
        return orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n"
    except orjson.JSONEncodeError:
        return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def write_conversation_file(conversation: Conversation, folder: str | Path) -> Path:
    """Write atomically (temporary file, then rename) so a reader never sees half a file."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / conversation_filename(conversation.conversation_id)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(encode_conversation(conversation))
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target


def conversation_to_dict(conversation: Conversation) -> dict[str, Any]:
    data: dict[str, Any] = {
        "conversationId": conversation.conversation_id,
        "metadata": _metadata(conversation.metadata, conversation),
        "participant_profile": _profile(conversation.participant_profile),
        "prePanas": _panas(conversation.pre_panas),
        "postPanas": _panas(conversation.post_panas),
        "conversationWideQuestions": _conversation_wide(conversation.conversation_wide),
        "turns": [_turn(turn) for turn in conversation.turns],
    }
    return _with_unknown(data, conversation.other)


def _with_unknown(data: dict[str, Any], unknown: dict[str, Any]) -> dict[str, Any]:
    for key in sorted(unknown):
        if key not in data:
            data[key] = unknown[key]
    return data


def _metadata(metadata: Metadata, conversation: Conversation) -> dict[str, Any]:
    data: dict[str, Any] = {
        "conversationId": conversation.conversation_id,
        "model": metadata.model,
        "provider": metadata.provider,
        "model_version": metadata.model_version,
        "timestamp": metadata.timestamp,
        "category": metadata.category,
        "subtopic": metadata.subtopic,
        "turnCount": len(conversation.turns),
    }
    return _with_unknown(data, metadata.other)


def _profile(profile: ParticipantProfile | None) -> dict[str, Any] | None:
    if profile is None:
        return None
    data: dict[str, Any] = {
        "schema_version": profile.schema_version,
        "participant_id": profile.participant_id,
        "responses": profile.responses,
        "age": profile.age,
        "traits": list(profile.traits),
        "goals": list(profile.goals),
        "extra": profile.extra,
    }
    return _with_unknown(data, profile.other)


def _panas(panas: Panas | None) -> dict[str, Any] | None:
    if panas is None:
        return None
    data: dict[str, Any] = {
        "totalPositiveAffect": panas.total_positive,
        "totalNegativeAffect": panas.total_negative,
        "items": {name: panas.items[name] for name in PANAS_ITEMS if name in panas.items},
    }
    return _with_unknown(data, panas.other)


def _conversation_wide(answers: ConversationWide | None) -> dict[str, Any] | None:
    if answers is None:
        return None
    data: dict[str, Any] = {
        "q1_lookingFor": list(answers.looking_for),
        "q2_emotionClarity": answers.emotion_clarity,
        "q3_modelFit": answers.model_fit,
        "q3_followUp_whatFeltOff": list(answers.what_felt_off),
        "fourBranchScores": answers.four_branch.as_dict() if answers.four_branch else None,
    }
    return _with_unknown(data, answers.other)


def _turn(turn: Turn) -> dict[str, Any]:
    data: dict[str, Any] = {
        "turnNumber": turn.turn_number,
        "userMessage": turn.user_message,
        "llmResponse": turn.llm_response,
        "moodShiftTags": [{"emotion": t.emotion, "intensity": t.intensity} for t in turn.mood_tags],
        "annotations": _annotations(turn.annotations),
    }
    return _with_unknown(data, turn.other)


def _annotations(annotations: TurnAnnotations) -> dict[str, Any]:
    data: dict[str, Any] = {
        "binaryJudgements": [
            {
                "questionId": j.question_id,
                "llmValue": j.llm_value,
                "observedBehavior": j.observed,
                "preferredBehavior": j.preferred,
            }
            for j in annotations.binary_judgements
        ],
        "alternateResponses": {
            "llmImproved": annotations.llm_improved,
            "humanEdited": annotations.human_edited,
        },
        "pairwiseComparisons": [
            {
                "questionId": c.question_id,
                "responseA": c.response_a,
                "responseB": c.response_b,
                "winner": c.winner,
            }
            for c in annotations.pairwise_comparisons
        ],
        "selectedPairwiseQuestions": list(annotations.selected_pairwise_questions),
    }
    return _with_unknown(data, annotations.other)
