"""The flag registry and the pure shapes detectors work on.

A detector is a function of a ``ConversationSnapshot`` (plain data, built in bulk by
``loading.py``) and the study's ``Thresholds``; it returns a ``Detection`` or None. Being pure,
each detector is tested with a snapshot built in the test, and the chat backend can run the
same checks on a single message without the database.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from annotations.text_checks.lexicons import matches

# Severity values, the same strings as ``annotations.qa.models.Severity``.
INFO, WARNING, CRITICAL = "info", "warning", "critical"
MANUAL = "manual"  # the type of a flag a reviewer raises by hand


@dataclass(frozen=True)
class Thresholds:
    fast_annotation_seconds: float = 8
    short_message_chars: int = 4
    min_straightlining_answers: int = 6


@dataclass(frozen=True)
class LiveSignal:
    """What the chat backend detected on a turn while it happened (``TurnSignal``)."""

    kind: str  # "risk", "identity_leak" or "moderation"
    source: str  # user_message, model_reply, improved_reply
    phrases: tuple[str, ...]
    flagged: bool = False  # moderation: the model's verdict (False also when the call failed)
    categories: tuple[str, ...] = ()  # moderation: what it flagged


@dataclass(frozen=True)
class TurnSnapshot:
    number: int
    user_message: str
    model_reply: str
    annotated: bool = True
    human_edited: str | None = None
    annotation_seconds: float | None = None
    observed: tuple[str | None, ...] = ()
    preferred: tuple[str | None, ...] = ()
    signals: tuple[LiveSignal, ...] = ()

    def signalled(self, kind: str) -> list[str]:
        return [phrase for s in self.signals if s.kind == kind for phrase in s.phrases]


@dataclass(frozen=True)
class AttentionAnswer:
    survey: str
    item_key: str
    expected: tuple[str, ...]
    given: Any  # None when the participant has no answer for it


@dataclass(frozen=True)
class ComprehensionAttempts:
    failed: int  # wrong attempts (``Participant.comprehension_attempts``)
    passed: bool
    missed: tuple[tuple[str, ...], ...] = ()  # per wrong attempt, the questions answered wrong


@dataclass(frozen=True)
class OtherSession:
    """Another conversation under the same PROLIFIC_PID."""

    external_id: str
    study_slug: str
    same_study: bool


@dataclass(frozen=True)
class ConversationSnapshot:
    conversation_id: int
    turns: tuple[TurnSnapshot, ...] = ()
    attention: tuple[AttentionAnswer, ...] = ()
    same_pid_sessions: tuple[OtherSession, ...] = ()
    conversations_allowed: int = 1
    # The participant's language (else the study's default; ``languages.language_in``): the
    # risk check reads the messages in it, as the live chat does.
    language: str = "en"
    # The comprehension check after consent (services/comprehension.py): the participant's
    # wrong attempts, whether they passed, and the questions each wrong attempt missed.
    comprehension: ComprehensionAttempts | None = None


@dataclass(frozen=True)
class Detection:
    severity: str
    summary: str
    evidence: dict[str, Any] = field(default_factory=dict)
    turn_numbers: tuple[int, ...] = ()


Detector = Callable[[ConversationSnapshot, Thresholds], Detection | None]


def phrases_by_turn(
    snapshot: ConversationSnapshot,
    pattern: re.Pattern[str],
    text: Callable[[TurnSnapshot], str],
    signal_kind: str,
) -> dict[int, list[str]]:
    """Matched phrases per turn: in the text now, plus what the chat backend signalled live
    (it saw texts QA may not, such as the improved reply, or one corrected since)."""
    found = {
        t.number: list(dict.fromkeys(matches(pattern, text(t)) + t.signalled(signal_kind)))
        for t in snapshot.turns
    }
    return {number: phrases for number, phrases in found.items() if phrases}


def phrase_detection(found: dict[int, list[str]], severity: str, summary: str) -> Detection | None:
    if not found:
        return None
    return Detection(
        severity=severity,
        summary=summary,
        evidence={"turns": {str(n): phrases for n, phrases in found.items()}},
        turn_numbers=tuple(found),
    )


@dataclass(frozen=True)
class FlagType:
    key: str
    label: str
    description: str
    detect: Detector


_REGISTRY: dict[str, FlagType] = {}


def register(key: str, label: str, description: str) -> Callable[[Detector], Detector]:
    def decorator(detect: Detector) -> Detector:
        if key in _REGISTRY or key == MANUAL:
            raise ValueError(f"flag type {key!r} is registered twice")
        _REGISTRY[key] = FlagType(key, label, description, detect)
        return detect

    return decorator


def flag_types() -> tuple[FlagType, ...]:
    return tuple(_REGISTRY.values())


def flag_label(key: str) -> str:
    if key == MANUAL:
        return "Raised by a reviewer"
    flag_type = _REGISTRY.get(key)
    return flag_type.label if flag_type else key
