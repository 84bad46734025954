"""A participant message that signals risk (self-harm, crisis): a human must look."""

from __future__ import annotations

from annotations.qa.flags import base
from annotations.qa.flags.base import ConversationSnapshot, Detection, Thresholds, register
from annotations.text_checks.lexicons import RISK_PATTERN


@register(
    "risk_signal", "Risk signal", "A participant message contains a crisis or self-harm phrase."
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    found = base.phrases_by_turn(snapshot, RISK_PATTERN, lambda t: t.user_message, "risk")
    return base.phrase_detection(found, base.CRITICAL, f"risk phrases in {len(found)} message(s)")
