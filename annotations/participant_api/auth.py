"""Participant authentication: ``Authorization: Participant <token>``.

The token is handed out by the start endpoint and kept by the participant app (in memory or
sessionStorage). No cookie carries it, so a cross-site page cannot make a browser send it:
that is why these endpoints need no CSRF token. Participants have no Django account; a
request's ``user`` is a ``ParticipantPrincipal``.
"""

from __future__ import annotations

from dataclasses import dataclass

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from annotations.models import Participant
from annotations.services.participant_sessions import participant_for_token

KEYWORD = "Participant"
INVALID_SESSION = "This study session is not valid. Please open your study link again."


@dataclass(frozen=True)
class ParticipantPrincipal:
    """Stands in for ``request.user``: a participant is authenticated, but never staff."""

    participant: Participant
    is_authenticated: bool = True
    is_staff: bool = False
    is_superuser: bool = False

    @property
    def pk(self) -> int:
        return self.participant.pk


def token_from_header(header: str) -> str | None:
    """The token of an ``Authorization: Participant <token>`` header, or None for other schemes."""
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != KEYWORD.lower():
        return None
    return token.strip()


class ParticipantTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[ParticipantPrincipal, str] | None:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        token = token_from_header(header)
        if token is None:
            return None
        participant = participant_for_token(token)
        if participant is None:
            raise AuthenticationFailed(INVALID_SESSION)
        return ParticipantPrincipal(participant), token

    def authenticate_header(self, request: Request) -> str:
        return f'{KEYWORD} realm="study"'


class IsParticipant(BasePermission):
    message = "Open your study link to start a session."

    def has_permission(self, request: Request, view: object) -> bool:
        return isinstance(request.user, ParticipantPrincipal)


class ParticipantTokenScheme(OpenApiAuthenticationExtension):
    """Documents the scheme in the OpenAPI schema (drf-spectacular finds it by class path)."""

    target_class = "annotations.participant_api.auth.ParticipantTokenAuthentication"
    name = "participantToken"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Participant <token>`, the token returned by the start endpoint.",
        }
