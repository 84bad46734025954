"""One error shape for every participant endpoint, streaming or not:

    {"error": {"code": "out_of_turn", "message": "...", "field": null, ...extra}}

``code`` is stable for the app to act on; ``message`` can be shown to the participant;
``field`` names the offending input of an ``invalid`` request (``behaviour.B3.observed``).
A service's refusal (``ServiceError``, attune_collect/errors.py; the participant services raise
``FlowError``) is mapped here once (``service_error_status``/``service_error_body``), for DRF's
views and the streaming views alike.
"""

from __future__ import annotations

import math
from typing import Any

from django.http import JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from attune_collect.errors import ServiceError

STATUS_OF_CODE = {
    "invalid": status.HTTP_400_BAD_REQUEST,
    "unauthenticated": status.HTTP_401_UNAUTHORIZED,
    "withdrawn": status.HTTP_403_FORBIDDEN,
    "screened_out": status.HTTP_403_FORBIDDEN,
    "place_released": status.HTTP_403_FORBIDDEN,  # a Prolific place freed (docs/prolific.md)
    "study_closed": status.HTTP_403_FORBIDDEN,
    "study_paused": status.HTTP_403_FORBIDDEN,
    "study_full": status.HTTP_403_FORBIDDEN,
    "already_started": status.HTTP_403_FORBIDDEN,
    "not_found": status.HTTP_404_NOT_FOUND,
    "too_large": status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    "rate_limited": status.HTTP_429_TOO_MANY_REQUESTS,
    "too_many_streams": status.HTTP_429_TOO_MANY_REQUESTS,  # open streams of one address
    "study_unavailable": status.HTTP_503_SERVICE_UNAVAILABLE,
}
# Every other code (the FlowErrors' consent_changed, wrong_step, out_of_turn, turn_in_progress,
# already_submitted, max_turns_reached, min_turns_not_reached, idempotency_key_reused) is a
# conflict with the current state: 409.
DEFAULT_STATUS = status.HTTP_409_CONFLICT


def error_body(
    code: str, message: str, field: str | None = None, **extra: Any
) -> dict[str, dict[str, Any]]:
    return {"error": {"code": code, "message": message, "field": field, **extra}}


def service_error_status(error: ServiceError) -> int:
    return STATUS_OF_CODE.get(error.code, DEFAULT_STATUS)


def service_error_body(error: ServiceError) -> dict[str, dict[str, Any]]:
    return error_body(error.code, error.message, error.field, **error.data)


def flow_error_response(error: ServiceError) -> JsonResponse:
    """For the plain Django (streaming) views."""
    return JsonResponse(service_error_body(error), status=service_error_status(error))


def rate_limited_response(wait: float | None) -> JsonResponse:
    seconds = math.ceil(wait or 1)
    response = JsonResponse(
        error_body("rate_limited", "Too many requests. Please wait a moment.", retry_after=seconds),
        status=status.HTTP_429_TOO_MANY_REQUESTS,
    )
    response["Retry-After"] = str(seconds)
    return response


def validation_body(detail: Any) -> dict[str, dict[str, Any]]:
    """An ``invalid`` error from DRF's nested error detail, naming the first bad field."""
    field, message = _first_field_error(detail)
    return error_body(
        "invalid", f"{field}: {message}" if field else message, field or None, fields=detail
    )


def _first_field_error(detail: Any, path: str = "") -> tuple[str, str]:
    """The first message in DRF's nested error detail, with its dotted path."""
    if isinstance(detail, dict):
        key, value = next(iter(detail.items()))
        if key == "non_field_errors":
            prefix = path
        elif isinstance(key, int):  # ListField errors are keyed by index
            prefix = f"{path}[{key}]"
        else:
            prefix = f"{path}.{key}" if path else str(key)
        return _first_field_error(value, prefix)
    if isinstance(detail, list) and detail:
        index = next((i for i, item in enumerate(detail) if item), 0)
        item = detail[index]
        nested = isinstance(item, dict | list)
        return _first_field_error(item, f"{path}[{index}]" if nested else path)
    return path, str(detail)


def participant_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, reshaped into the error shape above; a ServiceError mapped by code."""
    if isinstance(exc, ServiceError):
        return Response(service_error_body(exc), status=service_error_status(exc))
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = validation_body(exc.detail)
    elif isinstance(exc, exceptions.Throttled):
        response.data = error_body(
            "rate_limited",
            "Too many requests. Please wait a moment.",
            retry_after=math.ceil(getattr(exc, "wait", None) or 1),
        )
    elif isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        response.data = error_body("unauthenticated", str(exc.detail))
    else:
        code = getattr(exc, "default_code", "error")
        response.data = error_body(str(code), str(getattr(exc, "detail", exc)))
    return response
