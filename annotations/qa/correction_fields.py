"""The fields a correction may change, named by their AttuneBench path. Pure Python.

A path says where a value sits in a conversation record, in the format's own names, so a
release's corrections file can be read against the format spec without our database:

    turns[turnNumber=2].userMessage
    turns[turnNumber=2].llmResponse
    turns[turnNumber=2].annotations.alternateResponses.humanEdited
    turns[turnNumber=2].moodShiftTags[0].emotion        (position in the list, from 0)
    turns[turnNumber=2].moodShiftTags[0].intensity
    turns[turnNumber=2].annotations.binaryJudgements[questionId=B11].observedBehavior
    turns[turnNumber=2].annotations.binaryJudgements[questionId=B11].preferredBehavior
    turns[turnNumber=2].annotations.pairwiseComparisons[0].winner
    prePanas.items.Nervous / postPanas.items.Nervous    (totals follow the items)
    conversationWideQuestions.q2_emotionClarity / q3_modelFit
    conversationWideQuestions.fourBranchScores.perceiving (facilitating, understanding, managing)

Corrections fix a value that exists; they never add or remove answers (that would be new
data, not a technical correction).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from attunebench import records
from attunebench.vocabulary import (
    ANSWER_VALUES,
    INTENSITY_MAX,
    INTENSITY_MIN,
    PANAS_NEGATIVE,
    PANAS_POSITIVE,
    WINNERS,
    canonical_panas_item,
)


class CorrectionPathError(ValueError):
    """The path names no correctable field, or a field this record does not have."""


class CorrectionValueError(ValueError):
    """The new value does not fit the field."""


class FieldKind(StrEnum):
    TEXT = "text"
    ANSWER = "answer"  # yes / no / na / blank
    WINNER = "winner"  # A / B / blank
    INTENSITY = "intensity"  # 1..7 or blank
    EMOTION = "emotion"  # a PANAS item
    PANAS_ITEM = "panas_item"  # 1..7
    RATING = "rating"  # four-branch rating, 1..7 or blank
    CHOICE = "choice"  # an option id of the instrument (checked by the caller)


Value = str | int | None
# Numbers without leading zeros, so each field has exactly one spelling (one active correction).
_NUMBER = r"(?:0|[1-9][0-9]*)"
_TURN = rf"turns\[turnNumber=(?P<turn>{_NUMBER})\]"
_JUDGEMENT_ATTRS = {"observedBehavior": "observed", "preferredBehavior": "preferred"}
_WIDE_ATTRS = {"q2_emotionClarity": "emotion_clarity", "q3_modelFit": "model_fit"}


@dataclass(frozen=True)
class FieldPath:
    text: str
    kind: FieldKind
    family: str
    turn_number: int | None = None
    index: int | None = None
    key: str = ""


_PATTERNS: tuple[tuple[re.Pattern[str], str, FieldKind | None], ...] = (
    (re.compile(rf"{_TURN}\.userMessage"), "user_message", FieldKind.TEXT),
    (re.compile(rf"{_TURN}\.llmResponse"), "llm_response", FieldKind.TEXT),
    (
        re.compile(rf"{_TURN}\.annotations\.alternateResponses\.humanEdited"),
        "human_edited",
        FieldKind.TEXT,
    ),
    (
        re.compile(rf"{_TURN}\.moodShiftTags\[(?P<index>{_NUMBER})\]\.(?P<key>emotion|intensity)"),
        "mood_tag",
        None,
    ),
    (
        re.compile(
            rf"{_TURN}\.annotations\.binaryJudgements\[questionId=(?P<qid>[A-Za-z0-9_:-]+)\]\.(?P<key>observedBehavior|preferredBehavior)"
        ),
        "judgement",
        FieldKind.ANSWER,
    ),
    (
        re.compile(rf"{_TURN}\.annotations\.pairwiseComparisons\[(?P<index>{_NUMBER})\]\.winner"),
        "winner",
        FieldKind.WINNER,
    ),
    (
        re.compile(r"(?P<key>prePanas|postPanas)\.items\.(?P<item>[A-Za-z]+)"),
        "panas",
        FieldKind.PANAS_ITEM,
    ),
    (
        re.compile(r"conversationWideQuestions\.(?P<key>q2_emotionClarity|q3_modelFit)"),
        "wide_choice",
        FieldKind.CHOICE,
    ),
    (
        re.compile(
            r"conversationWideQuestions\.fourBranchScores\.(?P<key>perceiving|facilitating|understanding|managing)"
        ),
        "branch",
        FieldKind.RATING,
    ),
)


def parse_path(text: str) -> FieldPath:
    text = text.strip()
    for pattern, family, kind in _PATTERNS:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        groups = match.groupdict()
        key = groups.get("key") or ""
        if family == "mood_tag":
            kind = FieldKind.EMOTION if key == "emotion" else FieldKind.INTENSITY
        if family == "judgement":
            key = f"{groups['qid']}.{key}"
        if family == "panas":
            item = canonical_panas_item(groups["item"])
            if item is None:
                raise CorrectionPathError(f"{text}: {groups['item']!r} is not a PANAS item")
            text = f"{key}.items.{item}"  # the item's canonical spelling
            key = f"{key}.{item}"
        assert kind is not None
        return FieldPath(
            text=text,
            kind=kind,
            family=family,
            turn_number=int(groups["turn"]) if groups.get("turn") else None,
            index=int(groups["index"]) if groups.get("index") else None,
            key=key,
        )
    raise CorrectionPathError(f"{text}: not a correctable field")


# --- values -------------------------------------------------------------------------------------


def coerce_value(path: FieldPath, raw: Any) -> Value:
    """A form's text (or a JSON value) as the field's type; raises CorrectionValueError."""
    text = raw.strip() if isinstance(raw, str) else raw
    blank = text is None or text == ""
    match path.kind:
        case FieldKind.TEXT:
            if not isinstance(raw, str):
                raise CorrectionValueError("a text is required")
            return raw
        case FieldKind.ANSWER:
            return _one_of(None if blank else str(text).lower(), (*ANSWER_VALUES, None))
        case FieldKind.WINNER:
            return _one_of(None if blank else str(text).upper(), (*WINNERS, None))
        case FieldKind.EMOTION:
            emotion = canonical_panas_item(str(text)) if not blank else None
            if emotion is None:
                raise CorrectionValueError(f"{raw!r} is not a PANAS item")
            return emotion
        case FieldKind.INTENSITY | FieldKind.RATING:
            return None if blank else _scale_point(text)
        case FieldKind.PANAS_ITEM:
            if blank:
                raise CorrectionValueError("a PANAS item needs a value from 1 to 7")
            return _scale_point(text)
        case FieldKind.CHOICE:
            return None if blank else str(text)
    raise CorrectionValueError(f"unknown field kind {path.kind}")  # pragma: no cover


def _one_of(value: str | None, allowed: tuple[str | None, ...]) -> str | None:
    if value not in allowed:
        shown = ", ".join("blank" if a is None else a for a in allowed)
        raise CorrectionValueError(f"{value!r} is not one of: {shown}")
    return value


def _scale_point(value: Any) -> int:
    try:
        number = int(str(value))
    except ValueError:
        raise CorrectionValueError(f"{value!r} is not a whole number") from None
    if not INTENSITY_MIN <= number <= INTENSITY_MAX:
        raise CorrectionValueError(f"{number} is outside {INTENSITY_MIN}..{INTENSITY_MAX}")
    return number


# --- reading and applying -----------------------------------------------------------------------


def read_value(record: records.Conversation, path: FieldPath) -> Value:
    """The value the record holds at ``path``; raises CorrectionPathError if it has none."""
    return _ACCESSORS[path.family][0](record, path)


def apply_value(
    record: records.Conversation, path: FieldPath, value: Value
) -> records.Conversation:
    """A copy of the record with ``value`` at ``path`` (the record itself is frozen)."""
    read_value(record, path)  # the same errors for a missing target
    return _ACCESSORS[path.family][1](record, path, value)


def _turn_index(record: records.Conversation, path: FieldPath) -> int:
    for index, turn in enumerate(record.turns):
        if turn.turn_number == path.turn_number:
            return index
    raise CorrectionPathError(f"{path.text}: the conversation has no turn {path.turn_number}")


def _turn(record: records.Conversation, path: FieldPath) -> records.Turn:
    return record.turns[_turn_index(record, path)]


def _with_turn(
    record: records.Conversation, path: FieldPath, change: Callable[[records.Turn], records.Turn]
) -> records.Conversation:
    turns = list(record.turns)
    index = _turn_index(record, path)
    turns[index] = change(turns[index])
    return replace(record, turns=tuple(turns))


def _at(items: tuple, path: FieldPath, what: str):
    if path.index is None or path.index >= len(items):
        raise CorrectionPathError(
            f"{path.text}: turn {path.turn_number} has no {what} {path.index}"
        )
    return items[path.index]


def _replaced_at(items: tuple, index: int, item) -> tuple:
    return (*items[:index], item, *items[index + 1 :])


def _judgement_index(turn: records.Turn, path: FieldPath) -> int:
    qid = path.key.split(".")[0]
    for index, judgement in enumerate(turn.annotations.binary_judgements):
        if judgement.question_id == qid:
            return index
    raise CorrectionPathError(f"{path.text}: turn {path.turn_number} has no question {qid}")


def _get_text(record, path):
    turn = _turn(record, path)
    if path.family == "human_edited":
        return turn.annotations.human_edited
    return getattr(turn, path.family)


def _set_text(record, path, value):
    if path.family == "human_edited":
        return _with_turn(
            record,
            path,
            lambda t: replace(t, annotations=replace(t.annotations, human_edited=value)),
        )
    return _with_turn(record, path, lambda t: replace(t, **{path.family: value}))


def _get_mood(record, path):
    return getattr(_at(_turn(record, path).mood_tags, path, "mood tag"), path.key)


def _set_mood(record, path, value):
    def change(turn: records.Turn) -> records.Turn:
        tag = replace(turn.mood_tags[path.index], **{path.key: value})
        return replace(turn, mood_tags=_replaced_at(turn.mood_tags, path.index, tag))

    return _with_turn(record, path, change)


def _get_judgement(record, path):
    turn = _turn(record, path)
    judgement = turn.annotations.binary_judgements[_judgement_index(turn, path)]
    return getattr(judgement, _JUDGEMENT_ATTRS[path.key.split(".")[1]])


def _set_judgement(record, path, value):
    def change(turn: records.Turn) -> records.Turn:
        index = _judgement_index(turn, path)
        judgements = turn.annotations.binary_judgements
        changed = replace(judgements[index], **{_JUDGEMENT_ATTRS[path.key.split(".")[1]]: value})
        annotations = replace(
            turn.annotations, binary_judgements=_replaced_at(judgements, index, changed)
        )
        return replace(turn, annotations=annotations)

    return _with_turn(record, path, change)


def _get_winner(record, path):
    comparisons = _turn(record, path).annotations.pairwise_comparisons
    return _at(comparisons, path, "pairwise comparison").winner


def _set_winner(record, path, value):
    def change(turn: records.Turn) -> records.Turn:
        comparisons = turn.annotations.pairwise_comparisons
        changed = replace(comparisons[path.index], winner=value)
        annotations = replace(
            turn.annotations,
            pairwise_comparisons=_replaced_at(comparisons, path.index, changed),
        )
        return replace(turn, annotations=annotations)

    return _with_turn(record, path, change)


def _panas(record, path) -> tuple[str, records.Panas, str]:
    phase, item = path.key.split(".")
    panas = record.pre_panas if phase == "prePanas" else record.post_panas
    if panas is None or item not in panas.items:
        raise CorrectionPathError(f"{path.text}: the record has no such PANAS answer")
    return ("pre_panas" if phase == "prePanas" else "post_panas"), panas, item


def _get_panas(record, path):
    _, panas, item = _panas(record, path)
    return panas.items[item]


def _set_panas(record, path, value):
    attribute, panas, item = _panas(record, path)
    items = {**panas.items, item: value}
    # Totals are derived from the items, as the reader does, when a polarity is complete.
    totals = {}
    for names, total in ((PANAS_POSITIVE, "total_positive"), (PANAS_NEGATIVE, "total_negative")):
        if item in names and all(name in items for name in names):
            totals[total] = sum(items[name] for name in names)
    return replace(record, **{attribute: replace(panas, items=items, **totals)})


def _wide(record, path) -> records.ConversationWide:
    if record.conversation_wide is None:
        raise CorrectionPathError(f"{path.text}: the record has no post-chat answers")
    return record.conversation_wide


def _get_choice(record, path):
    return getattr(_wide(record, path), _WIDE_ATTRS[path.key])


def _set_choice(record, path, value):
    wide = replace(_wide(record, path), **{_WIDE_ATTRS[path.key]: value})
    return replace(record, conversation_wide=wide)


def _get_branch(record, path):
    branches = _wide(record, path).four_branch
    if branches is None:
        raise CorrectionPathError(f"{path.text}: the record has no four-branch ratings")
    return getattr(branches, path.key)


def _set_branch(record, path, value):
    wide = _wide(record, path)
    if wide.four_branch is None:
        raise CorrectionPathError(f"{path.text}: the record has no four-branch ratings")
    branches = replace(wide.four_branch, **{path.key: value})
    return replace(record, conversation_wide=replace(wide, four_branch=branches))


_ACCESSORS: dict[str, tuple[Callable, Callable]] = {
    "user_message": (_get_text, _set_text),
    "llm_response": (_get_text, _set_text),
    "human_edited": (_get_text, _set_text),
    "mood_tag": (_get_mood, _set_mood),
    "judgement": (_get_judgement, _set_judgement),
    "winner": (_get_winner, _set_winner),
    "panas": (_get_panas, _set_panas),
    "wide_choice": (_get_choice, _set_choice),
    "branch": (_get_branch, _set_branch),
}


# --- building paths (for pages that offer a correction next to each value) ------------------


def turn_field(turn_number: int, field: str) -> str:
    return f"turns[turnNumber={turn_number}].{field}"


def judgement_field(turn_number: int, question_id: str, attribute: str) -> str:
    return turn_field(
        turn_number, f"annotations.binaryJudgements[questionId={question_id}].{attribute}"
    )
