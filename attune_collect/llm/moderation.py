"""A moderation verdict on one participant message, asked of any chat model through the gateway.

The verdict is a classifier prompt, not a provider's moderation API: a prompt works on every
endpoint the platform can already call (OpenAI-compatible servers, every litellm provider, the
offline demo provider), under the same timeouts, retries, limits and accounting, and it asks
exactly the question the study cares about (is this person at risk?), which general-purpose
moderation models answer only in part. The model answers one line of JSON:

    {"flagged": true, "categories": ["suicide"]}

``read_verdict`` is strict about ``flagged`` (a boolean, or the verdict is unreadable: a
guess would either cry wolf or stay silent on a person at risk) and lenient about the rest
(fences around the JSON, unknown categories dropped).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .types import Completion

# The marker the offline demo provider recognises (demo_moderation.py): keep it in the prompt.
MODERATION_MARKER = "Attune risk moderation"
CATEGORIES = ("suicide", "self_harm", "harm_to_others", "abuse", "crisis")

MODERATION_INSTRUCTIONS = (
    f"{MODERATION_MARKER}. You are a safety classifier for a research study in which people "
    "talk about their feelings with an assistant. Read the participant's message and decide "
    "whether it signals that they may be at risk: thoughts of suicide or of not wanting to "
    "live, self-harm, plans or means to hurt themselves, intent to harm others, abuse they "
    'suffer, or an acute crisis. Everyday figures of speech ("this deadline is killing me") '
    "are not risk. Answer with one line of JSON and nothing else: "
    '{"flagged": true or false, "categories": [...]}, where categories are chosen from '
    + ", ".join(CATEGORIES)
    + " (empty when not flagged)."
)

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


class VerdictUnreadable(ValueError):
    """The model answered, but not with a verdict (the answer is not kept: it may quote)."""


@dataclass(frozen=True)
class ModerationVerdict:
    flagged: bool
    categories: tuple[str, ...]
    model: str  # the model that answered
    latency_ms: float
    attempts: int
    cost_usd: float


def moderation_messages(text: str) -> list[dict[str, str]]:
    """The classifier prompt: the instructions, then the message as the user's turn."""
    return [
        {"role": "system", "content": MODERATION_INSTRUCTIONS},
        {"role": "user", "content": f"Participant's message:\n{text}"},
    ]


def read_verdict(completion: Completion) -> ModerationVerdict:
    """The verdict in a completion's text; raises VerdictUnreadable."""
    raw = _FENCE.sub("", completion.text.strip())
    start, end = raw.find("{"), raw.rfind("}")
    if start < 0 or end < start:
        raise VerdictUnreadable("the moderation answer holds no JSON object")
    try:
        answer = json.loads(raw[start : end + 1])
    except ValueError:
        raise VerdictUnreadable("the moderation answer is not valid JSON") from None
    flagged = answer.get("flagged") if isinstance(answer, dict) else None
    if not isinstance(flagged, bool):
        raise VerdictUnreadable('the moderation answer has no boolean "flagged"')
    categories = answer.get("categories")
    named = categories if isinstance(categories, list) else []
    return ModerationVerdict(
        flagged=flagged,
        categories=tuple(c for c in CATEGORIES if c in {str(n).strip().lower() for n in named}),
        model=completion.model,
        latency_ms=completion.latency_ms,
        attempts=completion.attempts,
        cost_usd=completion.cost_usd,
    )
