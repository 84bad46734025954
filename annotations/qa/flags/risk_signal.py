"""A participant message that signals risk (self-harm, crisis): a human must look.

Two signals raise it: the word match (the shared lexicon, over the text now and what the chat
saw live) and, where the study has one, the moderation model's flagged verdicts
(``services/moderation.py``). The evidence keeps them apart, so the reviewer reads which one
fired on which message: ``turns`` (matched phrases) and ``moderation`` (flagged categories).
"""

from __future__ import annotations

from annotations.qa.flags import base
from annotations.qa.flags.base import ConversationSnapshot, Detection, Thresholds, register
from annotations.text_checks.lexicons import RISK_PATTERN

MODERATION = "moderation"  # SignalKind.MODERATION (this module stays free of the models)


@register(
    "risk_signal",
    "Risk signal",
    "A participant message contains a crisis or self-harm phrase, or the study's moderation "
    "model flagged it.",
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    found = base.phrases_by_turn(snapshot, RISK_PATTERN, lambda t: t.user_message, "risk")
    summary = f"risk phrases in {len(found)} message(s)"
    moderated = {
        turn.number: list(signal.categories)
        for turn in snapshot.turns
        for signal in turn.signals
        if signal.kind == MODERATION and signal.flagged
    }
    if not moderated:
        return base.phrase_detection(found, base.CRITICAL, summary)
    parts = [summary] if found else []
    parts.append(f"flagged by the moderation model in {len(moderated)} message(s)")
    return Detection(
        severity=base.CRITICAL,
        summary="; ".join(parts),
        evidence={
            "turns": {str(n): phrases for n, phrases in found.items()},
            "moderation": {str(n): categories for n, categories in moderated.items()},
        },
        turn_numbers=tuple(sorted(found.keys() | moderated.keys())),
    )
