"""The same answer to every behaviour question (straight-lining)."""

from __future__ import annotations

from annotations.qa.flags import base
from annotations.qa.flags.base import ConversationSnapshot, Detection, Thresholds, register


@register(
    "straight_lining",
    "Same answer to every behaviour question",
    "Every 'did it' answer is one value and every 'should it' answer is one value.",
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    observed = [v for t in snapshot.turns for v in t.observed if v is not None]
    preferred = [v for t in snapshot.turns for v in t.preferred if v is not None]
    if len(observed) < thresholds.min_straightlining_answers:
        return None
    if len(set(observed)) != 1 or len(set(preferred)) > 1:
        return None
    return Detection(
        severity=base.WARNING,
        summary=f"all {len(observed)} behaviour answers are '{observed[0]}'"
        + (f" / should '{preferred[0]}'" if preferred else ""),
        evidence={
            "answers": len(observed),
            "observed": observed[0],
            "preferred": preferred[0] if preferred else None,
        },
    )
