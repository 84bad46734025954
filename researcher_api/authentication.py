"""``Authorization: Bearer att_...``: a researcher API token (``tokens.py``).

An unknown, revoked or expired token, or one whose user is no longer active, is a 401 at once:
every request reads the token's row (by its digest) and the user's memberships afresh.
The value is never logged: DRF logs nothing of headers, and errors name only the prefix
scheme, never the value.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed

from researcher_api.tokens import record_use, token_for_value

KEYWORD = "Bearer"


class ApiTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        header = get_authorization_header(request).split()
        if not header or header[0].decode(errors="replace").lower() != KEYWORD.lower():
            return None
        if len(header) != 2:
            raise AuthenticationFailed("Send one token: Authorization: Bearer <token>.")
        try:
            value = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise AuthenticationFailed("Invalid, revoked or expired token.") from None
        token = token_for_value(value)
        if token is None:
            raise AuthenticationFailed("Invalid, revoked or expired token.")
        record_use(token)
        return token.user, token

    def authenticate_header(self, request: Any) -> str:
        return f'{KEYWORD} realm="api"'


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "researcher_api.authentication.ApiTokenAuthentication"
    name = "researcherToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer", "description": "A researcher API token."}
