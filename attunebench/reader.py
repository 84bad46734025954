"""Read AttuneBench ``conversation_*.json`` files into typed records (spec section 1).

The reader accepts every alias the spec names (legacy keys, nested PANAS ``responses``, old
pairwise keys, legacy intensity words) and rejects anything else with a ``FormatError`` whose
message names the offending field, so an importer can report each bad file and skip it.
"""

from __future__ import annotations

import json
import os
import stat
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from attunebench.errors import AttuneBenchError
from attunebench.json_tree import json_tree_problem
from attunebench.records import (
    BinaryJudgement,
    Conversation,
    ConversationWide,
    FourBranchScores,
    Metadata,
    MoodTag,
    PairwiseComparison,
    Panas,
    ParticipantProfile,
    Turn,
    TurnAnnotations,
)
from attunebench.vocabulary import (
    ANSWER_VALUES,
    FOUR_BRANCHES,
    INTENSITY_MAX,
    INTENSITY_MIN,
    LEGACY_INTENSITY,
    PANAS_NEGATIVE,
    PANAS_POSITIVE,
    PANAS_TOTAL_MAX,
    PANAS_TOTAL_MIN,
    RESPONSE_LABELS,
    WINNERS,
    canonical_panas_item,
)


class FormatError(AttuneBenchError):
    """A file that is not a valid AttuneBench conversation. ``field`` locates the problem."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}" if field else reason)


_METADATA_KEYS = ("model", "provider", "model_version", "timestamp", "category", "subtopic")
# Derived on write, so they are not kept as unknown keys on read.
_METADATA_DERIVED = ("conversationId", "turnCount")
_PROFILE_KEYS = (
    "schema_version",
    "participant_id",
    "responses",
    "age",
    "traits",
    "goals",
    "extra",
)
_CONVERSATION_KEYS = (
    "conversationId",
    "metadata",
    "participant_profile",
    "prePanas",
    "postPanas",
    "conversationWideQuestions",
    "turns",
)
_TURN_KEYS = ("turnNumber", "userMessage", "llmResponse", "moodShiftTags", "annotations")
_ANNOTATION_KEYS = (
    "binaryJudgements",
    "alternateResponses",
    "pairwiseComparisons",
    "selectedPairwiseQuestions",
)
_OBSERVED_ALIASES = ("observedBehavior", "did_occur", "humanValue", "actualValue")
_PREFERRED_ALIASES = ("preferredBehavior", "should_occur", "humanPreference")
_CW_ALIASES = {
    "q1_lookingFor": ("q1_lookingFor", "Q1"),
    "q2_emotionClarity": ("q2_emotionClarity", "Q2"),
    "q3_modelFit": ("q3_modelFit", "Q3"),
}
_CW_KEYS = (
    "q1_lookingFor",
    "Q1",
    "q2_emotionClarity",
    "Q2",
    "q3_modelFit",
    "Q3",
    "q3_followUp_whatFeltOff",
    "fourBranchScores",
)


# Limits every file is read with (a conversation of the reference set is a few tens of KiB).
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 32
MAX_NUMBER_CHARS = 40  # 5,000-digit integers would pass json and stall int(); no field needs more
# The largest turn number a database integer column holds (signed 32 bits, as in PostgreSQL);
# a larger one would fail only when saved, after other files of its batch were written.
MAX_TURN_NUMBER = 2**31 - 1


def read_conversation_file(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES) -> Conversation:
    """Parse one file. Raises ``FormatError`` (invalid JSON included) naming the problem.

    Only a regular file is read, never through a symbolic link (``O_NOFOLLOW``) and never
    a FIFO or device (``O_NONBLOCK``, then ``fstat``), and only up to ``max_bytes``.
    """
    raw = _read_regular_file(Path(path), max_bytes)
    try:
        data = json.loads(
            raw.decode("utf-8"),
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_refuse_constant,
        )
    except UnicodeDecodeError as exc:
        raise FormatError("", f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise FormatError(
            "", f"invalid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc
    except RecursionError:
        raise FormatError("", f"nested more than {MAX_DEPTH} levels deep") from None
    check_json_tree(data)
    return parse_conversation(data)


def _read_regular_file(path: Path, max_bytes: int) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FormatError("", f"cannot be opened as a regular file ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FormatError("", "is not a regular file")
        if info.st_size > max_bytes:
            raise FormatError("", f"is {info.st_size} bytes; at most {max_bytes} are read")
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise FormatError("", f"is more than {max_bytes} bytes; at most {max_bytes} are read")
    return raw


def _parse_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise FormatError("", f"a number of {len(text)} digits (at most {MAX_NUMBER_CHARS})")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise FormatError("", f"a number of {len(text)} characters (at most {MAX_NUMBER_CHARS})")
    return float(text)


def _refuse_constant(name: str) -> None:
    raise FormatError("", f"{name} is not a JSON number")


def check_json_tree(data: Any) -> None:
    """Refuse nesting deeper than MAX_DEPTH and any NUL character (no database column stores
    one), naming where."""
    problem = json_tree_problem(data, MAX_DEPTH)
    if problem is not None:
        raise FormatError(*problem)


def iter_conversation_files(folder: str | Path) -> Iterator[Path]:
    """The ``conversation_*.json`` files of a folder, sorted by name.

    Ids in the reference folders are not contiguous, so the folder is listed, never derived.
    """
    yield from sorted(Path(folder).glob("conversation_*.json"))


def parse_conversation(data: Any) -> Conversation:
    obj = _expect_object(data, "")
    conversation_id = _file_name_id(obj.get("conversationId"), "conversationId")
    turns = _parse_turns(obj.get("turns"), "turns")
    return Conversation(
        conversation_id=conversation_id,
        metadata=_parse_metadata(obj.get("metadata"), "metadata"),
        participant_profile=_parse_profile(obj.get("participant_profile"), "participant_profile"),
        pre_panas=_parse_panas(obj.get("prePanas"), "prePanas"),
        post_panas=_parse_panas(obj.get("postPanas"), "postPanas"),
        conversation_wide=_parse_conversation_wide(
            obj.get("conversationWideQuestions"), "conversationWideQuestions"
        ),
        turns=turns,
        other=_unknown(obj, _CONVERSATION_KEYS),
    )


# --- helpers for primitive values -------------------------------------------------------------


def _expect_object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FormatError(where, f"expected an object, got {_type_name(value)}")
    return value


def _expect_list(value: Any, where: str, *, allow_none: bool = True) -> list[Any]:
    if value is None and allow_none:
        return []
    if not isinstance(value, list):
        raise FormatError(where, f"expected a list, got {_type_name(value)}")
    return value


def _expect_id(value: Any, where: str) -> str:
    # Reference ids are strings; integer ids are accepted and normalised to their text.
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise FormatError(where, f"expected a string id, got {_type_name(value)}")
    text = str(value).strip()
    if not text:
        raise FormatError(where, "must not be empty")
    return text


def _file_name_id(value: Any, where: str) -> str:
    """An id that can name a file: exports and releases write ``conversation_<id>.json``, so a
    path separator or a control character would make the id unexportable once imported."""
    text = _expect_id(value, where)
    bad = next((c for c in text if c in "/\\" or unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise FormatError(
            where,
            f"{text!r} contains {bad!r}; the id becomes a file name (conversation_<id>.json), "
            "so it may hold no path separator (/ or \\) or control character",
        )
    return text


def _optional_str(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise FormatError(where, f"expected a string, got {_type_name(value)}")
    return value


def _optional_text(value: Any, where: str) -> str | None:
    """Like _optional_str but numbers are accepted as text (versions, timestamps)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return _optional_str(value, where)


def _str_list(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)  # a single choice where a list was expected
    items = _expect_list(value, where)
    for index, item in enumerate(items):
        if not isinstance(item, str):
            raise FormatError(f"{where}[{index}]", f"expected a string, got {_type_name(item)}")
    return tuple(items)


def _bounded_int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FormatError(where, f"expected an integer {low}..{high}, got {_type_name(value)}")
    if isinstance(value, float) and not value.is_integer():
        raise FormatError(where, f"expected an integer {low}..{high}, got {value}")
    number = int(value)
    if not low <= number <= high:
        raise FormatError(where, f"{number} is out of range {low}..{high}")
    return number


def _optional_bounded_int(value: Any, where: str, low: int, high: int) -> int | None:
    return None if value is None else _bounded_int(value, where, low, high)


def _answer(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value.strip().lower() not in ANSWER_VALUES:
        raise FormatError(where, f"{value!r} is not one of yes, no, na or null")
    return value.strip().lower()


def _first_present(obj: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if key in obj:
            return obj[key]
    return None


def _unknown(obj: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    return {key: value for key, value in obj.items() if key not in known}


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__


# --- sections ---------------------------------------------------------------------------------


def _parse_metadata(value: Any, where: str) -> Metadata:
    if value is None:
        return Metadata()
    obj = _expect_object(value, where)
    fields = {key: _optional_text(obj.get(key), f"{where}.{key}") for key in _METADATA_KEYS}
    return Metadata(**fields, other=_unknown(obj, _METADATA_KEYS + _METADATA_DERIVED))


def _parse_profile(value: Any, where: str) -> ParticipantProfile | None:
    if value is None:
        return None
    obj = _expect_object(value, where)
    age = obj.get("age")
    if isinstance(age, str) and age.strip().isdigit():
        age = int(age.strip())  # questionnaires often store numbers as text
    responses = obj.get("responses")
    extra = obj.get("extra")
    participant_id = obj.get("participant_id")
    return ParticipantProfile(
        participant_id=None
        if participant_id is None
        else _expect_id(participant_id, f"{where}.participant_id"),
        schema_version=_optional_text(obj.get("schema_version"), f"{where}.schema_version"),
        age=_optional_bounded_int(age, f"{where}.age", 0, 130),
        traits=_str_list(obj.get("traits"), f"{where}.traits"),
        goals=_str_list(obj.get("goals"), f"{where}.goals"),
        responses=dict(_expect_object(responses, f"{where}.responses"))
        if responses is not None
        else {},
        extra=dict(_expect_object(extra, f"{where}.extra")) if extra is not None else None,
        other=_unknown(obj, _PROFILE_KEYS),
    )


def _parse_panas(value: Any, where: str) -> Panas | None:
    if value is None:
        return None
    obj = _expect_object(value, where)
    items_key = "items" if obj.get("items") is not None else "responses"
    raw_items = obj.get(items_key) or {}
    raw_items = _expect_object(raw_items, f"{where}.{items_key}")
    items: dict[str, int] = {}
    for name, score in raw_items.items():
        canonical = canonical_panas_item(name)
        if canonical is None:
            raise FormatError(f"{where}.{items_key}.{name}", "unknown PANAS item")
        if canonical in items:
            raise FormatError(f"{where}.{items_key}.{name}", "PANAS item given twice")
        items[canonical] = _bounded_int(score, f"{where}.{items_key}.{name}", 1, 7)
    positive = _panas_total(obj, "totalPositiveAffect", items, PANAS_POSITIVE, where)
    negative = _panas_total(obj, "totalNegativeAffect", items, PANAS_NEGATIVE, where)
    if positive is None or negative is None:
        raise FormatError(where, "has neither totals nor items to derive them from")
    known = ("items", "responses", "totalPositiveAffect", "totalNegativeAffect")
    return Panas(
        items=items, total_positive=positive, total_negative=negative, other=_unknown(obj, known)
    )


def _panas_total(
    obj: dict[str, Any], key: str, items: dict[str, int], names: tuple[str, ...], where: str
) -> int | None:
    value = obj.get(key)
    if value is None:
        present = [items[name] for name in names if name in items]
        if not present:
            return None
        value = sum(present)
    elif isinstance(value, bool) or not isinstance(value, int | float):
        raise FormatError(f"{where}.{key}", f"expected a number, got {_type_name(value)}")
    # Totals are clamped to the PANAS range, as the reference does.
    return int(min(max(round(value), PANAS_TOTAL_MIN), PANAS_TOTAL_MAX))


def _parse_conversation_wide(value: Any, where: str) -> ConversationWide | None:
    if value is None:
        return None
    obj = _expect_object(value, where)
    looking_for = _first_present(obj, _CW_ALIASES["q1_lookingFor"])
    clarity = _first_present(obj, _CW_ALIASES["q2_emotionClarity"])
    fit = _first_present(obj, _CW_ALIASES["q3_modelFit"])
    branches = obj.get("fourBranchScores")
    return ConversationWide(
        looking_for=_str_list(looking_for, f"{where}.q1_lookingFor"),
        emotion_clarity=_optional_str(clarity, f"{where}.q2_emotionClarity"),
        model_fit=_optional_str(fit, f"{where}.q3_modelFit"),
        what_felt_off=_str_list(
            obj.get("q3_followUp_whatFeltOff"), f"{where}.q3_followUp_whatFeltOff"
        ),
        four_branch=_parse_four_branch(branches, f"{where}.fourBranchScores"),
        other=_unknown(obj, _CW_KEYS),
    )


def _parse_four_branch(value: Any, where: str) -> FourBranchScores | None:
    if value is None:
        return None
    obj = _expect_object(value, where)
    unknown = sorted(set(obj) - set(FOUR_BRANCHES))
    if unknown:
        raise FormatError(
            f"{where}.{unknown[0]}", f"unknown branch (expected {', '.join(FOUR_BRANCHES)})"
        )
    scores = {
        name: _optional_bounded_int(obj.get(name), f"{where}.{name}", 1, 7)
        for name in FOUR_BRANCHES
    }
    return FourBranchScores(**scores)


def _parse_turns(value: Any, where: str) -> tuple[Turn, ...]:
    turns = []
    seen: set[int] = set()
    for index, raw in enumerate(_expect_list(value, where)):
        turn = _parse_turn(raw, f"{where}[{index}]")
        if turn.turn_number in seen:
            raise FormatError(
                f"{where}[{index}].turnNumber", f"duplicate turn number {turn.turn_number}"
            )
        seen.add(turn.turn_number)
        turns.append(turn)
    return tuple(sorted(turns, key=lambda turn: turn.turn_number))


def _parse_turn(value: Any, where: str) -> Turn:
    obj = _expect_object(value, where)
    number = obj.get("turnNumber")
    if isinstance(number, bool) or not isinstance(number, int):
        raise FormatError(f"{where}.turnNumber", f"expected an integer, got {_type_name(number)}")
    if number < 0:
        raise FormatError(f"{where}.turnNumber", f"{number} must not be negative")
    if number > MAX_TURN_NUMBER:
        raise FormatError(f"{where}.turnNumber", f"{number} is larger than {MAX_TURN_NUMBER}")
    tags = tuple(
        _parse_mood_tag(raw, f"{where}.moodShiftTags[{i}]")
        for i, raw in enumerate(_expect_list(obj.get("moodShiftTags"), f"{where}.moodShiftTags"))
    )
    return Turn(
        turn_number=number,
        user_message=_optional_str(obj.get("userMessage"), f"{where}.userMessage") or "",
        llm_response=_optional_str(obj.get("llmResponse"), f"{where}.llmResponse") or "",
        mood_tags=tags,
        annotations=_parse_annotations(obj.get("annotations"), f"{where}.annotations"),
        other=_unknown(obj, _TURN_KEYS),
    )


def _parse_mood_tag(value: Any, where: str) -> MoodTag:
    obj = _expect_object(value, where)
    emotion = obj.get("emotion")
    if not isinstance(emotion, str):
        raise FormatError(f"{where}.emotion", f"expected a PANAS item, got {_type_name(emotion)}")
    canonical = canonical_panas_item(emotion)
    if canonical is None:
        raise FormatError(f"{where}.emotion", f"{emotion!r} is not a PANAS item")
    intensity = obj.get("intensity")
    if isinstance(intensity, str):
        word = intensity.strip().lower()
        if word not in LEGACY_INTENSITY:
            raise FormatError(f"{where}.intensity", f"{intensity!r} is not an intensity")
        intensity = LEGACY_INTENSITY[word]
    return MoodTag(
        emotion=canonical,
        intensity=_optional_bounded_int(
            intensity, f"{where}.intensity", INTENSITY_MIN, INTENSITY_MAX
        ),
    )


def _parse_annotations(value: Any, where: str) -> TurnAnnotations:
    if value is None:
        return TurnAnnotations()
    obj = _expect_object(value, where)
    judgements = tuple(
        _parse_judgement(raw, f"{where}.binaryJudgements[{i}]")
        for i, raw in enumerate(
            _expect_list(obj.get("binaryJudgements"), f"{where}.binaryJudgements")
        )
    )
    _refuse_duplicates([j.question_id for j in judgements], f"{where}.binaryJudgements")
    alternates = obj.get("alternateResponses")
    llm_improved = human_edited = None
    if alternates is not None:
        alt = _expect_object(alternates, f"{where}.alternateResponses")
        llm_improved = _optional_str(
            _first_present(alt, ("llmImproved", "alternate1")),
            f"{where}.alternateResponses.llmImproved",
        )
        human_edited = _optional_str(
            _first_present(alt, ("humanEdited", "alternate2")),
            f"{where}.alternateResponses.humanEdited",
        )
    comparisons = tuple(
        _parse_comparison(raw, f"{where}.pairwiseComparisons[{i}]")
        for i, raw in enumerate(
            _expect_list(obj.get("pairwiseComparisons"), f"{where}.pairwiseComparisons")
        )
    )
    return TurnAnnotations(
        binary_judgements=judgements,
        llm_improved=llm_improved,
        human_edited=human_edited,
        pairwise_comparisons=comparisons,
        selected_pairwise_questions=_str_list(
            obj.get("selectedPairwiseQuestions"), f"{where}.selectedPairwiseQuestions"
        ),
        other=_unknown(obj, _ANNOTATION_KEYS),
    )


def _refuse_duplicates(ids: list[str], where: str) -> None:
    seen: set[str] = set()
    for qid in ids:
        if qid in seen:
            raise FormatError(where, f"question {qid!r} answered twice")
        seen.add(qid)


def _parse_judgement(value: Any, where: str) -> BinaryJudgement:
    obj = _expect_object(value, where)
    question_id = _expect_id(obj.get("questionId"), f"{where}.questionId")
    return BinaryJudgement(
        question_id=question_id,
        llm_value=_answer(obj.get("llmValue"), f"{where}.llmValue"),
        observed=_answer(_first_present(obj, _OBSERVED_ALIASES), f"{where}.observedBehavior"),
        preferred=_answer(_first_present(obj, _PREFERRED_ALIASES), f"{where}.preferredBehavior"),
    )


def _parse_comparison(value: Any, where: str) -> PairwiseComparison:
    obj = _expect_object(value, where)
    question_id = _expect_id(obj.get("questionId"), f"{where}.questionId")
    labels = []
    for key, legacy in (("responseA", "response_1"), ("responseB", "response_2")):
        label = _first_present(obj, (key, legacy))
        if label not in RESPONSE_LABELS:
            raise FormatError(
                f"{where}.{key}", f"{label!r} is not one of {', '.join(RESPONSE_LABELS)}"
            )
        labels.append(label)
    winner = obj.get("winner")
    if winner is not None and winner not in WINNERS:
        raise FormatError(f"{where}.winner", f"{winner!r} is not A, B or null")
    return PairwiseComparison(
        question_id=question_id, response_a=labels[0], response_b=labels[1], winner=winner
    )
