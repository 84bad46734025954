"""The one error the evaluation services raise for a request they cannot carry out."""

from __future__ import annotations

from django.core.exceptions import ValidationError


class EvaluationError(ValidationError):
    """A run request or action that cannot be carried out; the message says why and what to do."""
