"""The error the participant services raise: a code the client can act on, and a message a
participant can read. It is the platform's ``ServiceError`` (attune_collect/errors.py); the API
maps codes to HTTP statuses (participant_api/errors.py).
"""

from __future__ import annotations

from typing import Any

from attune_collect.errors import ServiceError


class FlowError(ServiceError):
    """A request the study flow refuses. Raised before anything is written, so it changes nothing.

    ``code`` is stable and machine-readable (``invalid``, ``wrong_step``, ``out_of_turn``...);
    ``field`` names the offending input for ``invalid`` (``behaviour.B3.observed``). The code
    comes first: every call site names one.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        field: str | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, code=code, field=field, data=data)


def invalid(field: str, message: str) -> FlowError:
    return FlowError("invalid", message, field=field)
