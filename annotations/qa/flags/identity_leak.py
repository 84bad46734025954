"""A model reply that names a vendor or model: the participant may know whom they talk to."""

from __future__ import annotations

from annotations.qa.flags import base
from annotations.qa.flags.base import ConversationSnapshot, Detection, Thresholds, register
from annotations.text_checks.lexicons import IDENTITY_PATTERN


@register(
    "identity_leak",
    "Model identity leaked",
    "A model reply (or the improved reply shown beside it) names a vendor or a model family.",
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    found = base.phrases_by_turn(
        snapshot, IDENTITY_PATTERN, lambda t: t.model_reply, "identity_leak"
    )
    names = ", ".join(sorted({name for names in found.values() for name in names}))
    return base.phrase_detection(
        found, base.WARNING, f"model named itself in {len(found)} turn(s): {names}"
    )
