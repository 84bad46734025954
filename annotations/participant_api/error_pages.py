"""Django's own error pages for the participant API, in the API's JSON error shape.

A path the API does not route (``/api/study/turns/abc``: a turn number that is not an integer)
and a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` are answered by Django before any view runs,
with an HTML page the participant app cannot read. ``attune_collect/urls.py`` installs these as
``handler404`` and ``handler400``; every other path keeps Django's pages.
"""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

from annotations.participant_api.errors import error_body

API_PREFIX = "/api/"
TOO_LARGE = "The request body is too large."


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(
            error_body("not_found", "There is nothing at this address."), status=404
        )
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        if isinstance(exception, RequestDataTooBig):
            return JsonResponse(error_body("too_large", TOO_LARGE), status=413)
        return JsonResponse(error_body("bad_request", "The request is malformed."), status=400)
    return defaults.bad_request(request, exception)
