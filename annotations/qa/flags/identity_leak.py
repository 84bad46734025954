"""A model reply that names a vendor or model: the participant may know whom they talk to."""

from __future__ import annotations

from annotations.qa.flags.base import (
    WARNING,
    ConversationSnapshot,
    Detection,
    Thresholds,
    register,
)
from annotations.qa.flags.lexicons import IDENTITY_PATTERN, matches


@register(
    "identity_leak",
    "Model identity leaked",
    "A model reply names a vendor or a model family.",
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    found = {t.number: matches(IDENTITY_PATTERN, t.model_reply) for t in snapshot.turns}
    found = {number: terms for number, terms in found.items() if terms}
    if not found:
        return None
    return Detection(
        severity=WARNING,
        summary=f"model named itself in {len(found)} turn(s): {', '.join(sorted({t for ts in found.values() for t in ts}))}",
        evidence={"turns": {str(n): terms for n, terms in found.items()}},
        turn_numbers=tuple(found),
    )
