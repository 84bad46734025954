"""A comprehension check that needed a second attempt.

Prolific's policy gives two attempts, so a participant who fails once and then passes goes on
with the study; the first failure still says something about how well they read the task, so
the reviewer sees it beside the attention checks. A warning only: passing is what Prolific
asks, and a second failure already screened the participant out (services/comprehension.py).
"""

from __future__ import annotations

from annotations.qa.flags import base
from annotations.qa.flags.base import ConversationSnapshot, Detection, Thresholds, register


@register(
    "comprehension_second_attempt",
    "Comprehension check needed a second attempt",
    "The participant answered the comprehension check after consent wrongly at least once "
    "before passing it (or failed it twice).",
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    attempts = snapshot.comprehension
    if attempts is None or attempts.failed == 0:
        return None
    if attempts.passed:
        summary = f"Passed the comprehension check on attempt {attempts.failed + 1}"
    else:
        summary = f"Failed the comprehension check {attempts.failed} times"
    return Detection(
        severity=base.WARNING,
        summary=summary,
        evidence={
            "failed_attempts": attempts.failed,
            "passed": attempts.passed,
            # The question ids each wrong attempt missed (from the audit; empty if it is gone).
            "missed": [list(questions) for questions in attempts.missed],
        },
    )
