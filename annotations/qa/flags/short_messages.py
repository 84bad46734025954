"""Very short or empty participant messages."""

from __future__ import annotations

from annotations.qa.flags import base
from annotations.qa.flags.base import ConversationSnapshot, Detection, Thresholds, register


def _length(text: str) -> int:
    return sum(not c.isspace() for c in text)


@register(
    "short_messages",
    "Very short or empty messages",
    "A participant message is empty or shorter than the study's minimum.",
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    short = {
        t.number: _length(t.user_message)
        for t in snapshot.turns
        if _length(t.user_message) < thresholds.short_message_chars
    }
    if not short:
        return None
    empty = [n for n, length in short.items() if length == 0]
    mostly_short = 2 * len(short) > len(snapshot.turns)
    return Detection(
        severity=base.WARNING if empty or mostly_short else base.INFO,
        summary=f"{len(short)} of {len(snapshot.turns)} messages are empty or very short",
        evidence={
            "min_chars": thresholds.short_message_chars,
            "lengths": {str(n): c for n, c in short.items()},
        },
        turn_numbers=tuple(short),
    )
