"""Turning a model's reply text into the JSON object it was asked for.

Only repairs that cannot change what the model meant are made here: the reply as it is, else the
content of a fenced code block, else the outermost ``{...}`` (prose around the object), each also
tried with trailing commas removed. Anything riskier (single quotes, bare keys, cut-off objects)
is left to a re-ask, because a guess would put words in the model's mouth.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from attunebench.schemas import Schema, SchemaError

_FENCED = re.compile(r"```[a-zA-Z]*[ \t]*\n?(.*?)```", re.DOTALL)
_STRING_OR_TRAILING_COMMA = re.compile(r'"(?:\\.|[^"\\])*"|,(\s*[}\]])')


@dataclass(frozen=True)
class Parsed:
    """The validated answer, or why there is none. ``repaired``: a repair was needed."""

    value: dict[str, Any] | None
    error: str | None = None
    repaired: bool = False

    @property
    def ok(self) -> bool:
        return self.value is not None


def extract_json_object(text: str) -> tuple[dict[str, Any] | None, bool]:
    """The JSON object in ``text`` and whether a repair was needed, or (None, False)."""
    stripped = text.strip().lstrip("\ufeff")
    direct = _loads_object(stripped)
    if direct is not None:
        return direct, False
    for candidate in _candidates(stripped):
        for variant in (candidate, _without_trailing_commas(candidate)):
            parsed = _loads_object(variant)
            if parsed is not None:
                return parsed, True
    return None, False


def parse_answer(text: str, schema: Schema) -> Parsed:
    """Extract, repair where safe, and validate against the call type's schema."""
    obj, repaired = extract_json_object(text)
    if obj is None:
        return Parsed(None, "the reply is not a JSON object", repaired)
    try:
        return Parsed(schema.validate(obj), None, repaired)
    except SchemaError as exc:
        return Parsed(None, str(exc), repaired)


def _candidates(text: str) -> list[str]:
    candidates = [match.group(1).strip() for match in _FENCED.finditer(text)]
    candidates.append(text)
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    return candidates


def _loads_object(text: str) -> dict[str, Any] | None:
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _without_trailing_commas(text: str) -> str:
    """Drop commas directly before a closing brace or bracket. Strings are matched first and
    kept whole, so a comma inside a string is never touched."""
    return _STRING_OR_TRAILING_COMMA.sub(lambda m: m.group(1) or m.group(0), text)
