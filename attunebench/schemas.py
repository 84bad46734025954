"""The JSON answer of every call type: the template shown to the model and its validator.

One declaration per call type serves both directions, so the prompt can never ask for a shape
the validator does not accept: ``Schema.template()`` is the JSON object pasted into the prompt
(placeholders such as ``"yes|no|na"`` or example numbers), ``Schema.validate()`` checks a parsed
answer and returns it normalised (canonical PANAS spelling, lowercase yes/no/na, upper-case
A/B, option ids for option labels). Extra keys are ignored; a missing or malformed required
value raises ``SchemaError`` whose message is fit to send back to the model in a re-ask.

Bump ``SCHEMA_VERSION`` whenever a template changes: it is part of the prompt version id.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from attunebench.errors import AttuneBenchError
from attunebench.instrument import Instrument
from attunebench.records import MoodTag
from attunebench.vocabulary import (
    INTENSITY_MAX,
    INTENSITY_MIN,
    PANAS_ITEMS,
    canonical_panas_item,
)

SCHEMA_VERSION = "1"
PANAS_CHANGE_MAX = INTENSITY_MAX - INTENSITY_MIN  # an item can move at most 6 points


class SchemaError(AttuneBenchError):
    """An answer does not fit its call type's schema; the message names the key."""


class Kind(Protocol):
    def example(self) -> Any: ...

    def check(self, value: Any, path: str) -> Any: ...


# --- value kinds ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    placeholder: str

    def example(self) -> Any:
        return self.placeholder

    def check(self, value: Any, path: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise SchemaError(f"{path} must be a non-empty string")
        return value.strip()


@dataclass(frozen=True)
class TextList:
    placeholder: str

    def example(self) -> Any:
        return [self.placeholder]

    def check(self, value: Any, path: str) -> tuple[str, ...]:
        if isinstance(value, str):  # one phrase where a list was asked: unambiguous
            value = [value]
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise SchemaError(f"{path} must be a list of strings")
        return tuple(item.strip() for item in value if item.strip())


@dataclass(frozen=True)
class Keyed:
    """{key: one of a few words} for exactly the listed keys: behaviour answers (yes/no/na
    per question id) or pairwise letters (A/B per comparison index)."""

    keys: tuple[str, ...]
    placeholder: str
    convert: Callable[[Any], str | None]  # the normalised word, or None if it is not one
    expected: str

    def example(self) -> Any:
        return {key: self.placeholder for key in self.keys}

    def check(self, value: Any, path: str) -> dict[str, str]:
        obj = _object(value, path)
        converted: dict[str, str] = {}
        for key in self.keys:
            result = self.convert(obj.get(key))
            if result is None:
                raise SchemaError(f"{path}.{key} must be {self.expected}")
            converted[key] = result
        return converted


def answers(question_ids: Sequence[str]) -> Keyed:
    return Keyed(tuple(question_ids), "yes|no|na", _yes_no_na, "one of yes, no, na")


def letters(indices: Sequence[str]) -> Keyed:
    return Keyed(tuple(indices), "A|B", _letter, "A or B")


@dataclass(frozen=True)
class EmotionTags:
    """A list of {emotion: PANAS item, intensity: 1..7}; empty when there is no clear shift."""

    def example(self) -> Any:
        return [{"emotion": "<PANAS item>", "intensity": 4}]

    def check(self, value: Any, path: str) -> tuple[MoodTag, ...]:
        if not isinstance(value, list):
            raise SchemaError(f"{path} must be a list (empty if there is no clear emotion)")
        tags: dict[str, MoodTag] = {}
        for index, raw in enumerate(value):
            where = f"{path}[{index}]"
            name = (
                raw
                if isinstance(raw, str)
                else raw.get("emotion")
                if isinstance(raw, dict)
                else None
            )
            item = canonical_panas_item(name) if isinstance(name, str) else None
            if item is None:
                raise SchemaError(
                    f"{where}.emotion must be one of the PANAS items: {', '.join(PANAS_ITEMS)}"
                )
            intensity = raw.get("intensity") if isinstance(raw, dict) else None
            if intensity is not None:
                intensity = round(
                    _number(intensity, f"{where}.intensity", INTENSITY_MIN, INTENSITY_MAX)
                )
            tags.setdefault(item, MoodTag(item, intensity))  # a repeated item counts once
        return tuple(tags.values())


@dataclass(frozen=True)
class Number:
    low: float
    high: float
    sample: int

    def example(self) -> Any:
        return self.sample

    def check(self, value: Any, path: str) -> float:
        return _number(value, path, self.low, self.high)


@dataclass(frozen=True)
class Ratings:
    """{key: number in [low, high]} for exactly the listed keys."""

    keys: tuple[str, ...]
    low: float
    high: float
    sample: int

    def example(self) -> Any:
        return {key: self.sample for key in self.keys}

    def check(self, value: Any, path: str) -> dict[str, float]:
        obj = _object(value, path)
        by_lower = {str(key).strip().lower(): raw for key, raw in obj.items()}
        return {
            key: _number(by_lower.get(key.lower()), f"{path}.{key}", self.low, self.high)
            for key in self.keys
        }


@dataclass(frozen=True)
class Choice:
    """One option id; the option's label is accepted too and mapped to its id."""

    options: tuple[tuple[str, str], ...]  # (id, label)

    def example(self) -> Any:
        return "|".join(option_id for option_id, _ in self.options)

    def check(self, value: Any, path: str) -> str:
        option = _option(value, self.options)
        if option is None:
            ids = ", ".join(option_id for option_id, _ in self.options)
            raise SchemaError(f"{path} must be one of: {ids}")
        return option


@dataclass(frozen=True)
class Choices:
    """A list of option ids (multi-select; may be empty)."""

    options: tuple[tuple[str, str], ...]

    def example(self) -> Any:
        return [option_id for option_id, _ in self.options]

    def check(self, value: Any, path: str) -> tuple[str, ...]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise SchemaError(f"{path} must be a list of option ids")
        chosen: list[str] = []
        for index, raw in enumerate(value):
            option = _option(raw, self.options)
            if option is None:
                ids = ", ".join(option_id for option_id, _ in self.options)
                raise SchemaError(f"{path}[{index}] must be one of: {ids}")
            if option not in chosen:
                chosen.append(option)
        return tuple(chosen)


@dataclass(frozen=True)
class Field:
    key: str
    kind: Kind
    required: bool = True


@dataclass(frozen=True)
class Obj:
    fields: tuple[Field, ...]

    def example(self) -> dict[str, Any]:
        return {f.key: f.kind.example() for f in self.fields}

    def check(self, value: Any, path: str) -> dict[str, Any]:
        obj = _object(value, path)
        checked: dict[str, Any] = {}
        for item in self.fields:
            where = f"{path}.{item.key}" if path else item.key
            if item.key not in obj or obj[item.key] is None:
                if item.required:
                    raise SchemaError(f"missing key {where}")
                continue
            checked[item.key] = item.kind.check(obj[item.key], where)
        return checked


@dataclass(frozen=True)
class Schema:
    """The answer of one call type: a JSON object with these fields."""

    call_type: str
    body: Obj

    def template(self) -> dict[str, Any]:
        return self.body.example()

    def template_text(self) -> str:
        return _template_text(self)

    def validate(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise SchemaError("the answer must be a JSON object")
        return self.body.check(value, "")


# --- the call types (spec section 3) ----------------------------------------------------------

_REASONING = "<a few sentences: why you answered as you did>"


def _with_reasoning(fields: list[Field], verbose: bool, key: str = "reasoning") -> Obj:
    # Verbose modes require the reasoning field; the others do not ask for it at all, so the
    # default mode's answers are not shaped by an invitation to reason.
    if verbose:
        fields.append(Field(key, Text(_REASONING)))
    return Obj(tuple(fields))


def draft_schema(*, verbose: bool) -> Schema:
    fields = [Field("response", Text("<your reply to the participant>"))]
    return Schema("draft", _with_reasoning(fields, verbose, "response_reasoning"))


def om_review_schema(question_ids: Sequence[str], *, verbose: bool) -> Schema:
    fields = [
        Field("emotion_tags", EmotionTags()),
        Field("om_assessment", answers(question_ids)),
        Field("human_prediction", answers(question_ids)),
    ]
    return Schema("om_review", _with_reasoning(fields, verbose, "emotion_reasoning"))


def hp_review_schema(question_ids: Sequence[str], *, verbose: bool) -> Schema:
    fields = [
        Field("observed", answers(question_ids)),
        Field("preferred", answers(question_ids)),
    ]
    return Schema("hp_review", _with_reasoning(fields, verbose))


def pairwise_schema(count: int, *, verbose: bool) -> Schema:
    indices = tuple(str(index) for index in range(count))
    return Schema("pairwise", _with_reasoning([Field("selections", letters(indices))], verbose))


JUDGE_DIMENSIONS: tuple[str, ...] = (
    "overall_score",
    "emotional_appropriateness",
    "helpfulness",
    "tone_match",
)


def draft_judge_schema(question_ids: Sequence[str]) -> Schema:
    fields = [Field(name, Number(INTENSITY_MIN, INTENSITY_MAX, 4)) for name in JUDGE_DIMENSIONS]
    fields.append(Field("behaviour", answers(question_ids)))
    return Schema("draft_judge", Obj(tuple(fields)))


def reply_judge_schema(question_ids: Sequence[str]) -> Schema:
    """A judge's answers to the behaviour questions about a given reply (the original one or
    the participant's edit): for judge-vs-participant agreement."""
    return Schema("reply_judge", Obj((Field("behaviour", answers(question_ids)),)))


def post_conversation_schema(instrument: Instrument, *, delta: bool, verbose: bool) -> Schema:
    """Absolute strategy: post-PANAS items 1..7; delta strategies: item changes -6..+6.

    Totals are optional: the scorer derives them from the items (section 5).
    """
    panas_key = "predicted_panas_delta" if delta else "predicted_post_panas"
    low, high, sample = (
        (-PANAS_CHANGE_MAX, PANAS_CHANGE_MAX, 0) if delta else (INTENSITY_MIN, INTENSITY_MAX, 4)
    )
    options = {
        "q1": _options(instrument.q1_looking_for.options),
        "q2": _options(instrument.q2_emotion_clarity.options),
        "q3": _options(instrument.q3_model_fit.options),
    }
    fields = [
        Field(panas_key, Obj((Field("items", Ratings(PANAS_ITEMS, low, high, sample)),))),
        Field("q1_lookingFor", Choices(options["q1"])),
        Field("q2_emotionClarity", Choice(options["q2"])),
        Field("q3_modelFit", Choice(options["q3"])),
        Field("q3_followUp_whatFeltOff", TextList("<what felt off, in the participant's words>")),
        Field(
            "fourBranchScores",
            Ratings(instrument.branch_ids, INTENSITY_MIN, INTENSITY_MAX, 4),
        ),
    ]
    return Schema("post_conversation", _with_reasoning(fields, verbose))


# --- helpers ----------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1024)
def _template_text(schema: Schema) -> str:
    # Indented JSON is encoded in pure Python; schemas repeat (same questions, same
    # comparisons count), so each distinct one is encoded once per process.
    return json.dumps(schema.template(), indent=2, ensure_ascii=False)


def _options(options: Sequence[Any]) -> tuple[tuple[str, str], ...]:
    return tuple((option.id, option.label) for option in options)


def _yes_no_na(raw: Any) -> str | None:
    if isinstance(raw, bool):
        return "yes" if raw else "no"
    answer = raw.strip().lower() if isinstance(raw, str) else None
    return {"yes": "yes", "no": "no", "na": "na", "n/a": "na"}.get(answer or "")


def _letter(raw: Any) -> str | None:
    letter = raw.strip().upper().removeprefix("RESPONSE ").strip() if isinstance(raw, str) else None
    return letter if letter in ("A", "B") else None


def _object(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise SchemaError(f"{path or 'the answer'} must be a JSON object")
    return value


def _number(value: Any, path: str, low: float, high: float) -> float:
    number: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip().removeprefix("+"))
        except ValueError:
            number = None
    if number is None or not math.isfinite(number) or not low <= number <= high:
        raise SchemaError(f"{path} must be a number from {low:g} to {high:g}")
    return int(number) if number.is_integer() else number


def _option(value: Any, options: tuple[tuple[str, str], ...]) -> str | None:
    if not isinstance(value, str):
        return None
    wanted = " ".join(value.split()).casefold()
    for option_id, label in options:
        if wanted in (option_id.casefold(), " ".join(label.split()).casefold()):
            return option_id
    return None
