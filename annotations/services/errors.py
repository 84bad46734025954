"""The one error the participant services raise: a code the client can act on, and a message
a participant can read. The API layer maps codes to HTTP statuses (participant_api/errors.py).
"""

from __future__ import annotations

from typing import Any


class FlowError(Exception):
    """A request the study flow refuses. Raised before anything is written, so it changes nothing.

    ``code`` is stable and machine-readable (``invalid``, ``wrong_step``, ``out_of_turn``...);
    ``field`` names the offending input for ``invalid`` (``behaviour.B3.observed``).
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        field: str | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.data = data or {}

    def __str__(self) -> str:
        where = f" ({self.field})" if self.field else ""
        return f"[{self.code}]{where} {self.message}"


def invalid(field: str, message: str) -> FlowError:
    return FlowError("invalid", message, field=field)
