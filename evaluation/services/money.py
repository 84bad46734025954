"""Dollars as stored: the engine counts in floats, the database in exact decimals."""

from __future__ import annotations

from decimal import Decimal


def money(value: float) -> Decimal:
    """8 decimal places: a cheap model's call costs a few millionths of a dollar."""
    return Decimal(str(round(value, 8)))
