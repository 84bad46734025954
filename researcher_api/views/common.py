"""The base of every researcher API view: token authentication, the per-token rate limit and
the one JSON error shape."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework.parsers import JSONParser
from rest_framework.permissions import BasePermission
from rest_framework.views import APIView

from researcher_api.authentication import ApiTokenAuthentication
from researcher_api.errors import researcher_exception_handler
from researcher_api.models import ApiToken
from researcher_api.serializers import ApiErrorOutput
from researcher_api.throttling import TokenRateThrottle

TAG = "researcher"


class HasApiToken(BasePermission):
    def has_permission(self, request: Any, view: Any) -> bool:
        return isinstance(request.auth, ApiToken)


class ResearcherView(APIView):
    authentication_classes = [ApiTokenAuthentication]
    permission_classes = [HasApiToken]
    throttle_classes = [TokenRateThrottle]
    parser_classes = [JSONParser]  # one request type: scripts send JSON

    def get_exception_handler(self):
        return researcher_exception_handler

    def token(self) -> ApiToken:
        auth = self.request.auth
        assert isinstance(auth, ApiToken)  # HasApiToken ran before any handler
        return auth


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ApiErrorOutput, description=description)


READ_ERRORS: dict[int, OpenApiResponse] = {
    401: _error("No token, or an unknown, revoked or expired one."),
    403: _error("The token's user may not do this here."),
    404: _error("Not one of the token's studies, or no such row."),
    429: _error("Too many requests with this token."),
}
WRITE_ERRORS: dict[int, OpenApiResponse] = {
    **READ_ERRORS,
    400: _error("A field's value is refused."),
    409: _error("Refused in the current state."),
}
