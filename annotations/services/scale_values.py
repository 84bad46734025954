"""Checking a participant's number against the instrument's rating scale (1..7 by default)."""

from __future__ import annotations

from typing import Any

from annotations.services.errors import invalid
from attunebench.instrument import IntensityScale


def on_scale(field: str, value: Any, scale: IntensityScale) -> int:
    """The value, if it is a whole number on the scale; else an ``invalid`` error naming ``field``."""
    # bool is an int subclass: true is never a rating.
    if isinstance(value, bool) or not isinstance(value, int) or not scale.min <= value <= scale.max:
        raise invalid(field, f"must be a whole number from {scale.min} to {scale.max}")
    return value
