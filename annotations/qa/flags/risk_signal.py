"""A participant message that signals risk (self-harm, crisis): a human must look."""

from __future__ import annotations

from annotations.qa.flags.base import (
    CRITICAL,
    ConversationSnapshot,
    Detection,
    Thresholds,
    register,
)
from annotations.qa.flags.lexicons import RISK_PATTERN, matches


@register(
    "risk_signal",
    "Risk signal",
    "A participant message contains a crisis or self-harm phrase.",
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    found = {t.number: matches(RISK_PATTERN, t.user_message) for t in snapshot.turns}
    found = {number: phrases for number, phrases in found.items() if phrases}
    if not found:
        return None
    return Detection(
        severity=CRITICAL,
        summary=f"risk phrases in {len(found)} message(s)",
        evidence={"turns": {str(n): phrases for n, phrases in found.items()}},
        turn_numbers=tuple(found),
    )
