"""Requests per token per minute, counted by the participant API's throttle machinery (one
atomic Redis script, ``attune_collect/rate_window.py``; DRF's counting on any other cache).
The rate: ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["researcher_token"]``, default below."""

from __future__ import annotations

from typing import Any

from rest_framework.settings import api_settings

from annotations.participant_api.throttling import ParticipantRateThrottle

DEFAULT_RATE = "120/min"


class TokenRateThrottle(ParticipantRateThrottle):
    scope = "researcher_token"

    def get_rate(self) -> str:
        configured = api_settings.DEFAULT_THROTTLE_RATES or {}
        return str(configured.get(self.scope) or DEFAULT_RATE)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        token = getattr(request, "auth", None)
        if token is None or not hasattr(token, "prefix"):
            return None  # refused before it counts: authentication comes first
        return self.cache_format % {"scope": self.scope, "ident": f"t{token.prefix}"}
