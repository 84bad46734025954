"""The profile questionnaire of an instrument (optional section ``profile``), pure.

Each question has an id, a kind (``number``, ``single``, ``multi``), a prompt and, for the
choice kinds, options with ids. An option may ask for text (``"other": true``), and in a
question that defines traits (``trait_prefix``, e.g. ``diagnosis``) an option may have a
``role``: ``reference`` (e.g. "none": the comparison level of the statistics) or ``withheld``
("prefer not to say": its own level, never pooled with the reference). Every other option of
such a question is a condition: the participant's traits are ``<prefix>:<option id>``.

Answers are stored as option ids; an "other" text under ``<question id>_other``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from attunebench.errors import AttuneBenchError
from attunebench.other_text import OtherTextError, clean_other_texts

OPTION_ROLES = ("", "reference", "withheld")
QUESTION_KINDS = ("number", "single", "multi")


class ProfileError(AttuneBenchError):
    def __init__(self, field_path: str, message: str) -> None:
        super().__init__(f"{field_path}: {message}")
        self.field = field_path


@dataclass(frozen=True)
class ProfileOption:
    id: str
    label: str
    other: bool = False  # asks for a text box
    role: str = ""
    exclusive: bool = False  # in a multi-choice: cannot be combined with other options

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "other": self.other,
            "role": self.role,
            "exclusive": self.exclusive,
        }


@dataclass(frozen=True)
class AgeBand:
    id: str
    label: str
    min: int
    max: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "min": self.min, "max": self.max}


@dataclass(frozen=True)
class ProfileQuestion:
    id: str
    kind: str
    prompt: str
    required: bool = False
    options: tuple[ProfileOption, ...] = ()
    trait_prefix: str = ""
    min: int | None = None
    max: int | None = None
    bands: tuple[AgeBand, ...] = ()

    def option(self, option_id: str) -> ProfileOption | None:
        return next((o for o in self.options if o.id == option_id), None)

    def band_of(self, value: int) -> str | None:
        return next((b.id for b in self.bands if b.min <= value <= b.max), None)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "prompt": self.prompt,
            "required": self.required,
        }
        if self.kind == "number":
            data.update(min=self.min, max=self.max, bands=[b.to_dict() for b in self.bands])
        else:
            data["options"] = [o.to_dict() for o in self.options]
            data["trait_prefix"] = self.trait_prefix
        return data


@dataclass(frozen=True)
class Profile:
    questions: tuple[ProfileQuestion, ...]

    def question(self, qid: str) -> ProfileQuestion | None:
        return next((q for q in self.questions if q.id == qid), None)

    @property
    def trait_questions(self) -> tuple[ProfileQuestion, ...]:
        return tuple(q for q in self.questions if q.trait_prefix)

    def to_dict(self) -> dict[str, Any]:
        return {"questions": [q.to_dict() for q in self.questions]}


def _require(
    data: Any, path: str, keys: tuple[str, ...], optional: tuple[str, ...]
) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ProfileError(path, "expected an object")
    for key in keys:
        if key not in data:
            raise ProfileError(f"{path}.{key}", "is required")
    unknown = set(data) - set(keys) - set(optional)
    if unknown:
        raise ProfileError(f"{path}.{sorted(unknown)[0]}", "unknown key")
    return data


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ProfileError(path, "must be a non-empty string")
    return value


def _flag(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise ProfileError(path, "expected true or false")
    return value


def _int(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProfileError(path, "expected an integer")
    return value


def _parse_option(data: Any, path: str) -> ProfileOption:
    data = _require(data, path, ("id", "label"), ("other", "role", "exclusive"))
    role = data.get("role", "")
    if role not in OPTION_ROLES:
        raise ProfileError(f"{path}.role", f"{role!r} is not one of {OPTION_ROLES}")
    return ProfileOption(
        id=_text(data["id"], f"{path}.id"),
        label=_text(data["label"], f"{path}.label"),
        other=_flag(data.get("other", False), f"{path}.other"),
        role=role,
        exclusive=_flag(data.get("exclusive", False), f"{path}.exclusive"),
    )


def _parse_band(data: Any, path: str) -> AgeBand:
    data = _require(data, path, ("id", "label", "min", "max"), ())
    return AgeBand(
        id=_text(data["id"], f"{path}.id"),
        label=_text(data["label"], f"{path}.label"),
        min=_int(data["min"], f"{path}.min"),
        max=_int(data["max"], f"{path}.max"),
    )


def _unique(ids: list[str], path: str) -> None:
    if len(set(ids)) != len(ids):
        raise ProfileError(path, "ids must be unique")


def _parse_question(data: Any, path: str) -> ProfileQuestion:
    data = _require(
        data,
        path,
        ("id", "kind", "prompt"),
        ("required", "options", "trait_prefix", "min", "max", "bands"),
    )
    kind = data["kind"]
    if kind not in QUESTION_KINDS:
        raise ProfileError(f"{path}.kind", f"{kind!r} is not one of {QUESTION_KINDS}")
    common = {
        "id": _text(data["id"], f"{path}.id"),
        "kind": kind,
        "prompt": _text(data["prompt"], f"{path}.prompt"),
        "required": _flag(data.get("required", False), f"{path}.required"),
    }
    if kind == "number":
        bands = tuple(
            _parse_band(b, f"{path}.bands[{i}]") for i, b in enumerate(data.get("bands", []))
        )
        _unique([b.id for b in bands], f"{path}.bands")
        return ProfileQuestion(
            **common,
            min=_int(data.get("min", 0), f"{path}.min"),
            max=_int(data.get("max", 120), f"{path}.max"),
            bands=bands,
        )
    raw = data.get("options")
    if not isinstance(raw, list) or not raw:
        raise ProfileError(f"{path}.options", "must be a non-empty list")
    options = tuple(_parse_option(o, f"{path}.options[{i}]") for i, o in enumerate(raw))
    _unique([o.id for o in options], f"{path}.options")
    prefix = data.get("trait_prefix", "")
    if prefix and not isinstance(prefix, str):
        raise ProfileError(f"{path}.trait_prefix", "must be a string")
    return ProfileQuestion(**common, options=options, trait_prefix=prefix)


def load_profile(data: Any, path: str = "profile") -> Profile:
    data = _require(data, path, ("questions",), ())
    raw = data["questions"]
    if not isinstance(raw, list):
        raise ProfileError(f"{path}.questions", "must be a list")
    questions = tuple(_parse_question(q, f"{path}.questions[{i}]") for i, q in enumerate(raw))
    _unique([q.id for q in questions], f"{path}.questions")
    return Profile(questions=questions)


# -- answers -> traits (shared by the collection app, the importer and the statistics) -------


def traits_of(profile: Profile, responses: dict[str, Any]) -> list[str]:
    """The trait strings of a participant's answers: ``<prefix>:<option id>`` per chosen option
    of each trait question (reference and withheld options included, so levels stay apart)."""
    traits = []
    for question in profile.trait_questions:
        answer = responses.get(question.id)
        chosen = answer if isinstance(answer, list) else [answer] if answer else []
        traits += [f"{question.trait_prefix}:{option_id}" for option_id in chosen]
    return traits


def clean_answers(
    profile: Profile, answers: dict[str, Any], other_text: dict[str, str]
) -> dict[str, Any]:
    """Check a participant's choices against the questionnaire; return what is stored:
    ``{question id: option id | [option ids], "<question id>_other": text}``.

    Raises ProfileError naming the question (``answers.<id>`` or ``other_text.<id>``).
    """
    cleaned: dict[str, Any] = {}
    for qid in answers:
        question = profile.question(qid)
        if question is None or question.kind == "number":
            raise ProfileError(f"answers.{qid}", "is not a choice question of this questionnaire")
    wants_text: dict[str, bool] = {}
    for question in profile.questions:
        wants_text[question.id] = False
        if question.kind == "number":
            continue
        chosen = _chosen(question, answers.get(question.id))
        if not chosen:
            if question.required:
                raise ProfileError(f"answers.{question.id}", "please choose an answer")
            continue
        cleaned[question.id] = chosen if question.kind == "multi" else chosen[0]
        wants_text[question.id] = any(o.other for o in question.options if o.id in chosen)
    try:
        texts = clean_other_texts(wants_text, other_text)
    except OtherTextError as error:
        raise ProfileError(error.field, error.message) from None
    return cleaned | {f"{qid}_other": text for qid, text in texts.items()}


def _chosen(question: ProfileQuestion, answer: Any) -> list[str]:
    path = f"answers.{question.id}"
    if answer is None or answer == [] or answer == "":
        return []
    if question.kind == "single":
        if not isinstance(answer, str):
            raise ProfileError(path, "choose one option")
        chosen = [answer]
    else:
        if not isinstance(answer, list) or not all(isinstance(a, str) for a in answer):
            raise ProfileError(path, "expected a list of option ids")
        chosen = list(dict.fromkeys(answer))
    options = []
    for option_id in chosen:
        option = question.option(option_id)
        if option is None:
            raise ProfileError(path, f"{option_id!r} is not an option")
        options.append(option)
    if len(options) > 1 and any(option.exclusive for option in options):
        raise ProfileError(path, "this answer cannot be combined with others")
    return chosen
