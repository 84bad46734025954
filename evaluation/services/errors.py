"""The one error the evaluation services raise for a request they cannot carry out."""

from __future__ import annotations

from attune_collect.errors import ServiceError


class EvaluationError(ServiceError):
    """A run request or action that cannot be carried out; the message says why and what to do."""

    default_code = "evaluation_refused"
