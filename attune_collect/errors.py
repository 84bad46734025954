"""The one error type of the services: a stable code, a message a person can read, and the
input field it concerns (if any).

A service refuses a request by raising a ``ServiceError`` before it writes anything. Each app
raises its own subclass, named for the reader of its call sites: ``FlowError`` (the participant
flow, ``annotations/services/errors.py``), ``QAError``, ``ReleaseError``, ``EvaluationError``.
The error is mapped to the outside world once per surface:

- the participant API (DRF): ``annotations/participant_api/errors.py``, one exception handler,
  ``{"error": {"code", "message", "field", ...}}`` with a status chosen by the code;
- admin forms: ``add_to_form`` below, an error on the named field or on the whole form;
- admin pages and management commands show ``message`` (``str(error)`` is the message).

It imports nothing from the apps, so every app may import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

if TYPE_CHECKING:
    from django.forms import BaseForm


class ServiceError(Exception):
    """A request a service refuses; raised before anything is written, so it changes nothing.

    ``code`` is stable and machine-readable (each subclass has a default); ``field`` names the
    offending input (a form field, or a dotted path such as ``behaviour.B3.observed``); ``data``
    carries extra, JSON-safe details for an API client.
    """

    default_code = "refused"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        field: str | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code or self.default_code
        self.message = message
        self.field = field
        self.data = data or {}

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        where = f", field={self.field!r}" if self.field else ""
        return f"{type(self).__name__}({self.code!r}, {self.message!r}{where})"

    @classmethod
    def from_validation_error(cls, error: ValidationError, *, code: str = "invalid") -> Self:
        """The first message of a model's ``full_clean`` error, naming its field."""
        if hasattr(error, "error_dict"):
            field, errors = next(iter(error.error_dict.items()))
            message = next(iter(ValidationError(errors).messages), "invalid value")
            return cls(message, code=code, field=None if field == NON_FIELD_ERRORS else field)
        return cls(next(iter(error.messages), "invalid value"), code=code)


def add_to_form(form: BaseForm, error: ServiceError) -> None:
    """Show a service's refusal on an admin form: on its field when the form has that field,
    else above the form."""
    field = error.field if error.field in form.fields else None
    form.add_error(field, error.message)
