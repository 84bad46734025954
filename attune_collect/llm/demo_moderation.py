"""The demo provider's moderation verdicts: offline, deterministic, and clearly a heuristic.

A request carrying the moderation prompt (``moderation.MODERATION_MARKER`` in its system
message) is answered with the verdict JSON the prompt asks for, from two small phrase lists
over the participant's message. It is not the platform's risk detector (that one lives in
``annotations.text_checks`` and this package imports no Django app); it only lets a study
run its moderation signal end to end without a provider.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from .demo_personas import last_message_text
from .moderation import MODERATION_MARKER

_SUICIDE = re.compile(
    r"\b(suicid\w*|kill(?:ing)? myself|end(?:ing)? (?:it all|my life)|want(?:ed)? to die"
    r"|(?:do ?n'?t|no longer) want to (?:live|be (?:here|alive))|better off (?:dead|without me)"
    r"|no reason to live|overdose)\b",
    re.IGNORECASE,
)
_SELF_HARM = re.compile(
    r"\b(self[- ]?harm\w*|hurt(?:ing)? myself|cut(?:ting)? myself|burn(?:ing)? myself)\b",
    re.IGNORECASE,
)


def is_moderation_request(messages: Sequence[Mapping[str, Any]]) -> bool:
    return MODERATION_MARKER in last_message_text(messages, "system")


def moderation_answer(messages: Sequence[Mapping[str, Any]]) -> str:
    """The verdict JSON for the last user message (the prompt's labelled message)."""
    text = unicodedata.normalize("NFKC", last_message_text(messages, "user"))
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    categories = [
        name
        for name, pattern in (("suicide", _SUICIDE), ("self_harm", _SELF_HARM))
        if pattern.search(text)
    ]
    return json.dumps({"flagged": bool(categories), "categories": categories})
