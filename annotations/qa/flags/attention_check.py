"""Failed attention checks: an instructed-response item answered otherwise than instructed."""

from __future__ import annotations

from annotations.qa.flags import base
from annotations.qa.flags.base import ConversationSnapshot, Detection, Thresholds, register


def _normalise(value: object) -> str:
    return " ".join(str(value).split()).lower()


@register(
    "failed_attention_check",
    "Failed attention check",
    "An instructed-response item in a survey or an annotation step was answered otherwise "
    "than instructed.",
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    # An unanswered check is not a failure: the participant may never have reached that survey
    # or step. A check in an annotation step is ``annotation`` / ``turn-<n>`` (loading.py).
    failed = [
        answer
        for answer in snapshot.attention
        if answer.given is not None
        and _normalise(answer.given) not in {_normalise(e) for e in answer.expected}
    ]
    if not failed:
        return None
    return Detection(
        severity=base.CRITICAL if len(failed) > 1 else base.WARNING,
        summary=f"{len(failed)} of {len(snapshot.attention)} attention checks failed",
        evidence={
            "failed": [
                {
                    "survey": a.survey,
                    "item": a.item_key,
                    "given": a.given,
                    "expected": list(a.expected),
                }
                for a in failed
            ]
        },
    )
