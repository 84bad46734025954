"""The participant's "edited" reply is the original reply, unchanged, on every turn."""

from __future__ import annotations

from annotations.qa.flags import base
from annotations.qa.flags.base import ConversationSnapshot, Detection, Thresholds, register

MIN_EDITED_TURNS = 2  # one unchanged edit is a legitimate "it was fine as it was"


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


@register(
    "unedited_replies",
    "Edited reply identical to the original",
    "On every turn the participant's edited reply equals the model's reply.",
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    edited = [
        (t, t.human_edited) for t in snapshot.turns if t.annotated and t.human_edited is not None
    ]
    if len(edited) < MIN_EDITED_TURNS:
        return None
    if not all(_same(text, t.model_reply) for t, text in edited):
        return None
    return Detection(
        severity=base.WARNING,
        summary=f"the edited reply equals the original on all {len(edited)} turns",
        evidence={"turns": [t.number for t, _ in edited]},
        turn_numbers=tuple(t.number for t, _ in edited),
    )
