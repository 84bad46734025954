"""The demo provider's answer to the personal-details prompt: offline, deterministic, a heuristic.

A request carrying the prompt (``personal_details.PERSONAL_DETAILS_MARKER`` in its system
message) is answered with the JSON the prompt asks for: every run of capitalised words that does
not open a sentence, as a ``place`` after "in", "at", "from", "to" or "near" and a ``name``
otherwise. It is not a model (it misses a name that opens a sentence or is typed in lower case,
and takes any capitalised word for one): it lets the model mode run end to end, and be measured
as plumbing, without a provider.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .demo_personas import last_message_text
from .personal_details import PERSONAL_DETAILS_MARKER

_CAPITALISED = re.compile(r"\b[A-Z][a-z]+(?:[ -][A-Z][a-z]+)*\b")
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|\n\s*)$")
_PLACE_BEFORE = re.compile(r"\b(?:in|at|from|to|near)\s+$", re.IGNORECASE)
_NOT_NAMES = frozenset(
    [
        "I",
        "Im",
        "Ive",
        "Id",
        "Ill",
        "Mon",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
        "Christmas",
        "English",
        "Mum",
        "Dad",
        "OK",
        "Ok",
    ]
)
_PREFIX = "Text:\n"


def is_personal_details_request(messages: Sequence[Mapping[str, Any]]) -> bool:
    return PERSONAL_DETAILS_MARKER in last_message_text(messages, "system")


def personal_details_answer(messages: Sequence[Mapping[str, Any]]) -> str:
    text = last_message_text(messages, "user")
    text = text.removeprefix(_PREFIX)
    details: list[dict[str, str]] = []
    for match in _CAPITALISED.finditer(text):
        before = text[: match.start()]
        if _SENTENCE_START.search(before) or match.group().replace("'", "") in _NOT_NAMES:
            continue
        kind = "place" if _PLACE_BEFORE.search(before) else "name"
        details.append({"kind": kind, "text": match.group()})
    return json.dumps({"details": details})
