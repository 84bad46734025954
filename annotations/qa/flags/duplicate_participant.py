"""Duplicate participants: the same PROLIFIC_PID in more sessions than allowed."""

from __future__ import annotations

from annotations.qa.flags import base
from annotations.qa.flags.base import ConversationSnapshot, Detection, Thresholds, register


@register(
    "duplicate_participant",
    "Duplicate participant",
    "The same PROLIFIC_PID has more conversations in this study than it allows, or also took part in another study.",
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    others = snapshot.same_pid_sessions
    if not others:
        return None
    same_study = [o for o in others if o.same_study]
    over_limit = len(same_study) + 1 > snapshot.conversations_allowed
    if not over_limit and len(same_study) == len(others):
        return None  # repeat sessions the study allows
    return Detection(
        # Over the study's own limit is a real duplicate; another study may be legitimate.
        severity=base.WARNING if over_limit else base.INFO,
        summary=f"same PROLIFIC_PID in {len(others)} other conversation(s)",
        evidence={
            "allowed_per_participant": snapshot.conversations_allowed,
            "others": [{"conversation": o.external_id, "study": o.study_slug} for o in others],
        },
    )
