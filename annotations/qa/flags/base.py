"""The flag registry and the pure shapes detectors work on.

A detector is a function of a ``ConversationSnapshot`` (plain data, built in bulk by
``loading.py``) and the study's ``Thresholds``; it returns a ``Detection`` or None. Being pure,
each detector is tested with a snapshot built in the test, and the chat backend can run the
same checks on a single message without the database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# Severity values, the same strings as ``annotations.qa.models.Severity``.
INFO, WARNING, CRITICAL = "info", "warning", "critical"
MANUAL = "manual"  # the type of a flag a reviewer raises by hand


@dataclass(frozen=True)
class Thresholds:
    fast_annotation_seconds: float = 8
    short_message_chars: int = 4
    min_straightlining_answers: int = 6


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


@dataclass(frozen=True)
class AttentionAnswer:
    survey: str
    item_key: str
    expected: tuple[str, ...]
    given: Any  # None when the participant has no answer for it


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


@dataclass(frozen=True)
class Detection:
    severity: str
    summary: str
    evidence: dict[str, Any] = field(default_factory=dict)
    turn_numbers: tuple[int, ...] = ()


Detector = Callable[[ConversationSnapshot, Thresholds], Detection | None]


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
