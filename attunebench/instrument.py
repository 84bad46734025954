"""The instrument: what participants answer and what the model under test is asked (spec section 2).

An instrument is a versioned JSON definition (the default ships in
``data/instrument_default_v1.json``). It holds our own wordings of the AttuneBench questions;
the ids, categories and valence/arousal coordinates are facts of the benchmark.

This module is pure (stdlib only, no Django) so that the collection app, the evaluation engine
and offline scripts can all load and validate the same definition. Validation is strict and
fails on the first problem with the offending field in the message, because an instrument that
silently drops a question would corrupt every conversation collected with it.
"""

import functools
import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attunebench.canonical import canonical_sha256
from attunebench.errors import AttuneBenchError
from attunebench.profile import Profile, ProfileError, load_profile

# The format's fixed vocabulary lives in one place; re-exported here for instrument users.
from attunebench.vocabulary import (  # noqa: F401
    ANSWER_VALUES,
    FOUR_BRANCHES,
    INTENSITY_MAX,
    INTENSITY_MIN,
    LEGACY_INTENSITY,
    PANAS_NEGATIVE,
    PANAS_POSITIVE,
    RESPONSE_LABELS,
)

BEHAVIOUR_CATEGORIES: tuple[str, ...] = (
    "perceiving",
    "understanding",
    "using",
    "regulating",
    "cognitive_framing",
)
PANAS_POLARITIES: tuple[str, ...] = ("positive", "negative")
PANAS_ITEMS_PER_POLARITY = 10
CUSTOM_PAIRWISE_PREFIX = "custom:"

DEFAULT_INSTRUMENT_PATH = Path(__file__).resolve().parent / "data" / "instrument_default_v1.json"

_PAIRWISE_ID = re.compile(r"^(general|PW[1-9][0-9]*)$")
# The three post-chat choice questions (Q1, Q2, Q3); all are required.
_CHOICE_QUESTIONS: tuple[str, ...] = ("q1_looking_for", "q2_emotion_clarity", "q3_model_fit")


class InstrumentError(AttuneBenchError):
    """An instrument definition is malformed; ``field`` names where (e.g. ``panas_items[3].id``)."""

    def __init__(self, field_path: str, message: str) -> None:
        super().__init__(f"{field_path}: {message}")
        self.field = field_path


# --------------------------------------------------------------------------------------------
# Definition objects
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class IntensityScale:
    """The 1..7 rating scale used for emotion intensity and the four-branch ratings."""

    min: int
    max: int
    labels: tuple[tuple[int, str], ...] = ()

    def label(self, value: int) -> str | None:
        """The anchor label of a scale point, or None if that point has none."""
        return dict(self.labels).get(value)

    def to_dict(self) -> dict[str, Any]:
        return {
            "min": self.min,
            "max": self.max,
            "labels": {str(k): v for k, v in self.labels},
        }


@dataclass(frozen=True)
class PanasItem:
    id: str
    polarity: str
    valence: float
    arousal: float
    description: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "polarity": self.polarity,
            "valence": self.valence,
            "arousal": self.arousal,
            "description": self.description,
        }


@dataclass(frozen=True)
class BehaviourQuestion:
    """A yes/no/na behaviour question, worded about the participant and to the participant."""

    id: str
    category: str
    model_wording: str
    participant_wording: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "category": self.category,
            "model_wording": self.model_wording,
            "participant_wording": self.participant_wording,
        }


@dataclass(frozen=True)
class PairwiseQuestion:
    id: str
    model_wording: str
    participant_wording: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "model_wording": self.model_wording,
            "participant_wording": self.participant_wording,
        }


@dataclass(frozen=True)
class ChoiceOption:
    id: str
    label: str
    other: bool = False  # "Something else": asks for the participant's own words

    def to_dict(self) -> dict[str, Any]:
        # "other" only when set: the canonical form (and hash) of instruments without it
        # stays what it was.
        return {"id": self.id, "label": self.label} | ({"other": True} if self.other else {})


@dataclass(frozen=True)
class ChoiceQuestion:
    """A post-chat single- or multi-choice question; ``ordinal`` options run best to worst."""

    multi: bool
    options: tuple[ChoiceOption, ...]
    ordinal: bool = False
    prompt: str = ""

    @property
    def option_ids(self) -> tuple[str, ...]:
        return tuple(o.id for o in self.options)

    def to_dict(self) -> dict[str, Any]:
        return {
            "prompt": self.prompt,
            "multi": self.multi,
            "ordinal": self.ordinal,
            "options": [o.to_dict() for o in self.options],
        }


@dataclass(frozen=True)
class FollowUpQuestion:
    """The free-text "what felt off" question, shown only for the listed Q3 answers."""

    prompt: str
    shown_when: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"prompt": self.prompt, "shown_when": list(self.shown_when)}


@dataclass(frozen=True)
class Branch:
    """One of the four emotional-intelligence branches the participant rates 1..7."""

    id: str
    label: str
    participant_wording: str
    model_wording: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "participant_wording": self.participant_wording,
            "model_wording": self.model_wording,
        }


@dataclass(frozen=True)
class Instrument:
    name: str
    version: int
    description: str
    intensity_scale: IntensityScale
    panas_items: tuple[PanasItem, ...]
    behaviour_questions: tuple[BehaviourQuestion, ...]
    pairwise_questions: tuple[PairwiseQuestion, ...]
    q1_looking_for: ChoiceQuestion
    q2_emotion_clarity: ChoiceQuestion
    q3_model_fit: ChoiceQuestion
    q3_follow_up: FollowUpQuestion
    four_branches: tuple[Branch, ...]
    support_resources: str = ""
    profile: Profile | None = None  # the profile questionnaire (attunebench/profile.py)
    # Lookup tables built once; excluded from equality so two equal definitions compare equal.
    _panas_by_lower: dict[str, PanasItem] = field(init=False, repr=False, compare=False, hash=False)
    _behaviour_by_id: dict[str, BehaviourQuestion] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        # Frozen dataclass: object.__setattr__ is the sanctioned way to fill derived fields.
        object.__setattr__(self, "_panas_by_lower", {p.id.lower(): p for p in self.panas_items})
        object.__setattr__(self, "_behaviour_by_id", {q.id: q for q in self.behaviour_questions})

    # -- PANAS ---------------------------------------------------------------------------

    @property
    def panas_ids(self) -> tuple[str, ...]:
        """PANAS item names in file order."""
        return tuple(p.id for p in self.panas_items)

    @property
    def positive_items(self) -> tuple[PanasItem, ...]:
        return tuple(p for p in self.panas_items if p.polarity == "positive")

    @property
    def negative_items(self) -> tuple[PanasItem, ...]:
        return tuple(p for p in self.panas_items if p.polarity == "negative")

    def panas_item(self, name: str) -> PanasItem | None:
        """The item called ``name`` (case and surrounding space ignored), or None."""
        if not isinstance(name, str):
            return None
        return self._panas_by_lower.get(name.strip().lower())

    def va_similarity(self, a: str, b: str) -> float:
        """1 - euclidean distance of the (valence, arousal) points / sqrt(2), in [0, 1].

        sqrt(2) is the diagonal of the unit square, so opposite corners score 0 and the same
        item scores 1. Raises KeyError for a name that is not a PANAS item: the caller decides
        how an out-of-vocabulary label scores, this function does not guess.
        """
        item_a, item_b = self._require_panas(a), self._require_panas(b)
        distance = math.hypot(item_a.valence - item_b.valence, item_a.arousal - item_b.arousal)
        return 1.0 - distance / math.sqrt(2)

    def _require_panas(self, name: str) -> PanasItem:
        item = self.panas_item(name)
        if item is None:
            raise KeyError(f"{name!r} is not a PANAS item of instrument {self.name!r}")
        return item

    # -- Behaviour and pairwise questions -------------------------------------------------

    @property
    def behaviour_ids(self) -> tuple[str, ...]:
        return tuple(q.id for q in self.behaviour_questions)

    def behaviour_question(self, qid: str) -> BehaviourQuestion | None:
        return self._behaviour_by_id.get(qid)

    @property
    def pairwise_ids(self) -> tuple[str, ...]:
        return tuple(q.id for q in self.pairwise_questions)

    def is_valid_pairwise_id(self, qid: str) -> bool:
        """True for a pairwise id of this instrument or a ``custom:<text>`` id (non-empty text)."""
        if not isinstance(qid, str):
            return False
        if qid.startswith(CUSTOM_PAIRWISE_PREFIX):
            return bool(qid[len(CUSTOM_PAIRWISE_PREFIX) :].strip())
        return qid in self.pairwise_ids

    @property
    def branch_ids(self) -> tuple[str, ...]:
        return tuple(b.id for b in self.four_branches)

    # -- Serialisation --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The definition in its JSON shape, with every optional key filled in.

        Loading this dict again gives an equal instrument, so it is the canonical form.
        """
        return {
            "name": self.name,
            "version": self.version,
            "description": self.description,
            "intensity_scale": self.intensity_scale.to_dict(),
            "panas_items": [p.to_dict() for p in self.panas_items],
            "behaviour_questions": [q.to_dict() for q in self.behaviour_questions],
            "pairwise_questions": [q.to_dict() for q in self.pairwise_questions],
            "conversation_wide": {
                "q1_looking_for": self.q1_looking_for.to_dict(),
                "q2_emotion_clarity": self.q2_emotion_clarity.to_dict(),
                "q3_model_fit": self.q3_model_fit.to_dict(),
                "q3_follow_up": self.q3_follow_up.to_dict(),
            },
            "four_branches": [b.to_dict() for b in self.four_branches],
            "support_resources": self.support_resources,
        } | ({"profile": self.profile.to_dict()} if self.profile else {})

    def canonical_hash(self) -> str:
        """sha256 hex of the canonical definition; identifies exactly what people were asked.

        Key order and whitespace of the source file do not matter (sort_keys, compact
        separators); any change of wording, id or coordinate does.
        """
        return canonical_sha256(self.to_dict())


# --------------------------------------------------------------------------------------------
# Validation helpers: each takes the field path so that errors say exactly where they are.
# --------------------------------------------------------------------------------------------


def _mapping(
    value: Any, path: str, required: Iterable[str], optional: Iterable[str] = ()
) -> dict[str, Any]:
    """Check ``value`` is an object with all ``required`` keys and no unknown ones.

    Unknown keys are rejected because a misspelt key (``participant_wordng``) would otherwise
    be dropped without a trace.
    """
    if not isinstance(value, dict):
        raise InstrumentError(path or "<root>", f"expected an object, got {type(value).__name__}")
    required = tuple(required)
    allowed = set(required) | set(optional)
    prefix = f"{path}." if path else ""
    for key in required:
        if key not in value:
            raise InstrumentError(f"{prefix}{key}", "is required")
    for key in value:
        if key not in allowed:
            raise InstrumentError(f"{prefix}{key}", f"unknown key (allowed: {sorted(allowed)})")
    return value


def _text(value: Any, path: str, *, allow_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise InstrumentError(path, f"expected a string, got {type(value).__name__}")
    if not allow_empty and not value.strip():
        raise InstrumentError(path, "must not be empty")
    return value


def _integer(value: Any, path: str) -> int:
    # bool is an int subclass; True as a version or scale bound is always a mistake.
    if isinstance(value, bool) or not isinstance(value, int):
        raise InstrumentError(path, f"expected an integer, got {value!r}")
    return value


def _boolean(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise InstrumentError(path, f"expected true or false, got {value!r}")
    return value


def _unit_interval(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InstrumentError(path, f"expected a number, got {value!r}")
    if not 0.0 <= value <= 1.0:
        raise InstrumentError(path, f"{value!r} is outside [0, 1]")
    # Always a float so 1 and 1.0 hash the same.
    return float(value)


def _one_of(value: Any, path: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise InstrumentError(path, f"{value!r} is not one of {allowed}")
    return value


def _list_of[T](
    value: Any, path: str, parse: Callable[[Any, str], T], *, non_empty: bool = True
) -> tuple[T, ...]:
    if not isinstance(value, list):
        raise InstrumentError(path, f"expected a list, got {type(value).__name__}")
    if non_empty and not value:
        raise InstrumentError(path, "must not be empty")
    return tuple(parse(item, f"{path}[{i}]") for i, item in enumerate(value))


def _unique_ids(ids: Iterable[str], path: str, *, fold_case: bool = False) -> None:
    seen: set[str] = set()
    for i, item_id in enumerate(ids):
        key = item_id.lower() if fold_case else item_id
        if key in seen:
            raise InstrumentError(f"{path}[{i}].id", f"duplicate id {item_id!r}")
        seen.add(key)


# --------------------------------------------------------------------------------------------
# Section parsers
# --------------------------------------------------------------------------------------------


def _scale_point(key: Any) -> int | None:
    """A label key as an integer: JSON keys are strings, but a dict built in Python may use ints."""
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    if isinstance(key, str) and re.fullmatch(r"-?[0-9]+", key.strip()):
        return int(key)
    return None


def _parse_intensity_scale(value: Any, path: str) -> IntensityScale:
    data = _mapping(value, path, ("min", "max"), ("labels",))
    low = _integer(data["min"], f"{path}.min")
    high = _integer(data["max"], f"{path}.max")
    if low >= high:
        raise InstrumentError(f"{path}.max", f"must be greater than min ({low}), got {high}")
    # The database's CHECK constraints (mood tags, branch ratings) and the AttuneBench reader
    # hold only 1..7: a wider scale would collect answers that can never be stored.
    bounds = f"must lie within {INTENSITY_MIN}..{INTENSITY_MAX} (what the data can hold)"
    if low < INTENSITY_MIN:
        raise InstrumentError(f"{path}.min", f"{bounds}, got {low}")
    if high > INTENSITY_MAX:
        raise InstrumentError(f"{path}.max", f"{bounds}, got {high}")
    raw_labels = data.get("labels", {})
    if not isinstance(raw_labels, dict):
        raise InstrumentError(f"{path}.labels", "expected an object of scale point -> label")
    labels: list[tuple[int, str]] = []
    for key, label in raw_labels.items():
        key_path = f"{path}.labels.{key}"
        point = _scale_point(key)
        if point is None or not low <= point <= high:
            raise InstrumentError(key_path, f"key must be an integer in [{low}, {high}]")
        labels.append((point, _text(label, key_path)))
    if len({p for p, _ in labels}) != len(labels):
        raise InstrumentError(f"{path}.labels", "a scale point is labelled twice")
    return IntensityScale(min=low, max=high, labels=tuple(sorted(labels)))


def _parse_panas_item(value: Any, path: str) -> PanasItem:
    data = _mapping(value, path, ("id", "polarity", "valence", "arousal"), ("description",))
    return PanasItem(
        id=_text(data["id"], f"{path}.id"),
        polarity=_one_of(data["polarity"], f"{path}.polarity", PANAS_POLARITIES),
        valence=_unit_interval(data["valence"], f"{path}.valence"),
        arousal=_unit_interval(data["arousal"], f"{path}.arousal"),
        description=_text(data.get("description", ""), f"{path}.description", allow_empty=True),
    )


# The PANAS words are fixed by the format (vocabulary.py): the reader refuses any other emotion,
# so an instrument that renamed one would collect data its own importer rejects.
_PANAS_POLARITY: dict[str, str] = {
    **{name: "positive" for name in PANAS_POSITIVE},
    **{name: "negative" for name in PANAS_NEGATIVE},
}


def _check_panas_vocabulary(items: tuple[PanasItem, ...], path: str) -> None:
    for index, item in enumerate(items):
        polarity = _PANAS_POLARITY.get(item.id)
        if polarity is None:
            raise InstrumentError(
                f"{path}[{index}].id",
                f"{item.id!r} is not one of the PANAS items: {', '.join(_PANAS_POLARITY)}",
            )
        if item.polarity != polarity:
            raise InstrumentError(
                f"{path}[{index}].polarity", f"{item.id!r} is a {polarity} PANAS item"
            )


def _parse_panas_items(value: Any, path: str) -> tuple[PanasItem, ...]:
    items = _list_of(value, path, _parse_panas_item)
    expected_total = PANAS_ITEMS_PER_POLARITY * len(PANAS_POLARITIES)
    if len(items) != expected_total:
        raise InstrumentError(path, f"expected exactly {expected_total} items, got {len(items)}")
    # Case-folded: lookups are case-insensitive, so "Upset" and "upset" would collide.
    _unique_ids((p.id for p in items), path, fold_case=True)
    counts = {pol: sum(1 for p in items if p.polarity == pol) for pol in PANAS_POLARITIES}
    if any(n != PANAS_ITEMS_PER_POLARITY for n in counts.values()):
        wanted = " and ".join(f"{PANAS_ITEMS_PER_POLARITY} {pol}" for pol in PANAS_POLARITIES)
        got = " and ".join(f"{n} {pol}" for pol, n in counts.items())
        raise InstrumentError(path, f"expected {wanted} items, got {got}")
    _check_panas_vocabulary(items, path)
    return items


def _parse_behaviour_question(value: Any, path: str) -> BehaviourQuestion:
    data = _mapping(value, path, ("id", "category", "model_wording", "participant_wording"))
    return BehaviourQuestion(
        id=_text(data["id"], f"{path}.id"),
        category=_one_of(data["category"], f"{path}.category", BEHAVIOUR_CATEGORIES),
        model_wording=_text(data["model_wording"], f"{path}.model_wording"),
        participant_wording=_text(data["participant_wording"], f"{path}.participant_wording"),
    )


def _parse_pairwise_question(value: Any, path: str) -> PairwiseQuestion:
    data = _mapping(value, path, ("id", "model_wording", "participant_wording"))
    qid = _text(data["id"], f"{path}.id")
    if not _PAIRWISE_ID.match(qid):
        raise InstrumentError(f"{path}.id", f"{qid!r} is not 'general' or 'PW<n>'")
    return PairwiseQuestion(
        id=qid,
        model_wording=_text(data["model_wording"], f"{path}.model_wording"),
        participant_wording=_text(data["participant_wording"], f"{path}.participant_wording"),
    )


def _parse_option(value: Any, path: str) -> ChoiceOption:
    data = _mapping(value, path, ("id", "label"), ("other",))
    return ChoiceOption(
        id=_text(data["id"], f"{path}.id"),
        label=_text(data["label"], f"{path}.label"),
        other=_boolean(data.get("other", False), f"{path}.other"),
    )


def _parse_choice_question(value: Any, path: str) -> ChoiceQuestion:
    data = _mapping(value, path, ("multi", "options"), ("ordinal", "prompt"))
    options = _list_of(data["options"], f"{path}.options", _parse_option)
    _unique_ids((o.id for o in options), f"{path}.options")
    return ChoiceQuestion(
        multi=_boolean(data["multi"], f"{path}.multi"),
        options=options,
        ordinal=_boolean(data.get("ordinal", False), f"{path}.ordinal"),
        prompt=_text(data.get("prompt", ""), f"{path}.prompt", allow_empty=True),
    )


def _parse_follow_up(value: Any, path: str, q3: ChoiceQuestion) -> FollowUpQuestion:
    data = _mapping(value, path, ("prompt", "shown_when"))
    shown_when = _list_of(
        data["shown_when"],
        f"{path}.shown_when",
        lambda v, p: _one_of(v, p, q3.option_ids),
        non_empty=False,
    )
    if len(set(shown_when)) != len(shown_when):
        raise InstrumentError(f"{path}.shown_when", "lists an option twice")
    return FollowUpQuestion(prompt=_text(data["prompt"], f"{path}.prompt"), shown_when=shown_when)


def _parse_branch(value: Any, path: str) -> Branch:
    data = _mapping(value, path, ("id", "label", "participant_wording"), ("model_wording",))
    return Branch(
        id=_one_of(data["id"], f"{path}.id", FOUR_BRANCHES),
        label=_text(data["label"], f"{path}.label"),
        participant_wording=_text(data["participant_wording"], f"{path}.participant_wording"),
        model_wording=_text(
            data.get("model_wording", ""), f"{path}.model_wording", allow_empty=True
        ),
    )


def _parse_branches(value: Any, path: str) -> tuple[Branch, ...]:
    branches = _list_of(value, path, _parse_branch)
    _unique_ids((b.id for b in branches), path)
    missing = [b for b in FOUR_BRANCHES if b not in {x.id for x in branches}]
    if missing:
        raise InstrumentError(path, f"missing branch(es) {missing}; need exactly {FOUR_BRANCHES}")
    return branches


# --------------------------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------------------------


def load_instrument(data: dict[str, Any]) -> Instrument:
    """Validate an instrument definition and build an :class:`Instrument`.

    Raises InstrumentError (a ValueError) naming the first offending field.
    """
    root = _mapping(
        data,
        "",
        (
            "name",
            "version",
            "intensity_scale",
            "panas_items",
            "behaviour_questions",
            "pairwise_questions",
            "conversation_wide",
            "four_branches",
        ),
        ("description", "support_resources", "profile"),
    )
    version = _integer(root["version"], "version")
    if version < 1:
        raise InstrumentError("version", f"must be >= 1, got {version}")

    behaviour = _list_of(
        root["behaviour_questions"], "behaviour_questions", _parse_behaviour_question
    )
    _unique_ids((q.id for q in behaviour), "behaviour_questions")
    pairwise = _list_of(root["pairwise_questions"], "pairwise_questions", _parse_pairwise_question)
    _unique_ids((q.id for q in pairwise), "pairwise_questions")

    wide = _mapping(
        root["conversation_wide"], "conversation_wide", (*_CHOICE_QUESTIONS, "q3_follow_up")
    )
    choices = {
        key: _parse_choice_question(wide[key], f"conversation_wide.{key}")
        for key in _CHOICE_QUESTIONS
    }
    follow_up = _parse_follow_up(
        wide["q3_follow_up"], "conversation_wide.q3_follow_up", choices["q3_model_fit"]
    )

    return Instrument(
        name=_text(root["name"], "name"),
        version=version,
        description=_text(root.get("description", ""), "description", allow_empty=True),
        intensity_scale=_parse_intensity_scale(root["intensity_scale"], "intensity_scale"),
        panas_items=_parse_panas_items(root["panas_items"], "panas_items"),
        behaviour_questions=behaviour,
        pairwise_questions=pairwise,
        q1_looking_for=choices["q1_looking_for"],
        q2_emotion_clarity=choices["q2_emotion_clarity"],
        q3_model_fit=choices["q3_model_fit"],
        q3_follow_up=follow_up,
        four_branches=_parse_branches(root["four_branches"], "four_branches"),
        support_resources=_text(
            root.get("support_resources", ""), "support_resources", allow_empty=True
        ),
        profile=_parse_profile(root.get("profile")),
    )


def _parse_profile(value: Any) -> Profile | None:
    if value is None:
        return None
    try:
        return load_profile(value)
    except ProfileError as error:
        raise InstrumentError(error.field, str(error).split(": ", 1)[-1]) from None


@functools.cache
def _default_instrument_text() -> str:
    return DEFAULT_INSTRUMENT_PATH.read_text(encoding="utf-8")


def default_instrument_data() -> dict[str, Any]:
    """The shipped default definition as a fresh dict (safe to modify, e.g. to derive a variant)."""
    data: dict[str, Any] = json.loads(_default_instrument_text())
    return data


@functools.cache
def default_instrument() -> Instrument:
    """The shipped default instrument, loaded and validated once per process."""
    return load_instrument(default_instrument_data())


__all__ = [
    "ANSWER_VALUES",
    "BEHAVIOUR_CATEGORIES",
    "FOUR_BRANCHES",
    "LEGACY_INTENSITY",
    "RESPONSE_LABELS",
    "Branch",
    "BehaviourQuestion",
    "ChoiceOption",
    "ChoiceQuestion",
    "FollowUpQuestion",
    "Instrument",
    "InstrumentError",
    "IntensityScale",
    "PairwiseQuestion",
    "PanasItem",
    "default_instrument",
    "default_instrument_data",
    "load_instrument",
]
