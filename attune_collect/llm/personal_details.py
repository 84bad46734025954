"""Personal details in one text, asked of any chat model through the gateway.

The optional model mode of personal-detail detection (the pattern mode needs no model: it finds
e-mails, phones, URLs, handles, addresses, dates and ID numbers; names of people and places
cannot be found by patterns). A versioned prompt asks for the details the model sees, as one
JSON object, each detail quoted exactly as written:

    {"details": [{"kind": "name", "text": "Priya"}, {"kind": "place", "text": "Leeds"}]}

``read_details`` is strict about the shape (an object with a ``details`` list of objects with
string ``kind`` and ``text``, or the answer is unreadable and the caller records that and moves
on) and lenient about the rest (fences around the JSON, unknown kinds read as ``other``). It
does not locate the quotes in the text: the caller does, by exact substring, and drops a quote
the text does not hold (a model may paraphrase).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .types import Completion

# Bumped whenever the prompt or the answer's schema changes: texts scanned by an older version
# are scanned again before a release.
PROMPT_VERSION = "model-1"
# The marker the offline demo provider recognises (demo_personal_details.py): keep it in the prompt.
PERSONAL_DETAILS_MARKER = "Attune personal details"
KINDS = ("name", "place", "organisation", "other")

PERSONAL_DETAILS_INSTRUCTIONS = (
    f"{PERSONAL_DETAILS_MARKER} ({PROMPT_VERSION}). You find personal details in a text "
    "written for a research study, so they can be removed before the study's data is published. "
    "List every name of a person (first names, surnames, nicknames), every place that could "
    "locate someone (towns, streets, neighbourhoods, schools, hospitals), every organisation "
    "that could identify someone (employers, clubs), and any other detail that could identify "
    "a person. Quote each exactly as it is written in the text, character for character. "
    "Answer with one line of JSON and nothing else: "
    '{"details": [{"kind": "name", "text": "..."}]}, where kind is one of '
    + ", ".join(KINDS)
    + ' ({"details": []} when there are none).'
)

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


class DetailsUnreadable(ValueError):
    """The model answered, but not with the asked JSON (the answer is not kept: it may quote)."""


@dataclass(frozen=True)
class QuotedDetail:
    kind: str  # one of KINDS
    text: str  # as the model quoted it


def personal_details_messages(text: str) -> list[dict[str, str]]:
    """The prompt: the instructions, then the text as the user's turn."""
    return [
        {"role": "system", "content": PERSONAL_DETAILS_INSTRUCTIONS},
        {"role": "user", "content": f"Text:\n{text}"},
    ]


def read_details(completion: Completion) -> list[QuotedDetail]:
    """The details quoted in a completion's text; raises DetailsUnreadable."""
    raw = _FENCE.sub("", completion.text.strip())
    start, end = raw.find("{"), raw.rfind("}")
    if start < 0 or end < start:
        raise DetailsUnreadable("the answer holds no JSON object")
    try:
        answer = json.loads(raw[start : end + 1])
    except ValueError:
        raise DetailsUnreadable("the answer is not valid JSON") from None
    details = answer.get("details") if isinstance(answer, dict) else None
    if not isinstance(details, list):
        raise DetailsUnreadable('the answer has no "details" list')
    found: list[QuotedDetail] = []
    for item in details:
        if not isinstance(item, dict):
            raise DetailsUnreadable("a detail is not an object")
        kind, text = item.get("kind"), item.get("text")
        if not isinstance(kind, str) or not isinstance(text, str):
            raise DetailsUnreadable('a detail lacks a string "kind" or "text"')
        kind = kind.strip().lower()
        if text.strip():
            found.append(QuotedDetail(kind if kind in KINDS else "other", text))
    return found
