"""The researcher API's one error shape, the participant API's:
``{"error": {"code", "message", "field", ...}}``. A service's ``ServiceError`` maps by its code
(409 for a conflict with the current state), a model's ``ValidationError`` is a 400 naming the
field, a refused permission a 403, an unknown or revoked token a 401."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response

from annotations.participant_api.errors import participant_exception_handler


def researcher_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, Http404):  # stable codes: not_found, permission_denied
        exc = exceptions.NotFound(str(exc) or None)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    return participant_exception_handler(exc, context)
