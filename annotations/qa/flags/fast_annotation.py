"""Turns annotated implausibly fast: less time than reading the questions takes."""

from __future__ import annotations

from annotations.qa.flags import base
from annotations.qa.flags.base import ConversationSnapshot, Detection, Thresholds, register


@register(
    "fast_annotation",
    "Implausibly fast annotation",
    "A turn's annotation was submitted faster than the study's threshold allows.",
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    timed = [(t, t.annotation_seconds) for t in snapshot.turns if t.annotation_seconds is not None]
    fast = [(t, seconds) for t, seconds in timed if seconds < thresholds.fast_annotation_seconds]
    if not fast:
        return None
    return Detection(
        # One hurried turn happens; most turns hurried is a pattern.
        severity=base.CRITICAL if 2 * len(fast) > len(timed) else base.WARNING,
        summary=f"{len(fast)} of {len(timed)} timed turns annotated in under {thresholds.fast_annotation_seconds:g} s",
        evidence={
            "threshold_seconds": thresholds.fast_annotation_seconds,
            "turns": {str(t.number): round(seconds, 1) for t, seconds in fast},
        },
        turn_numbers=tuple(t.number for t, _ in fast),
    )
