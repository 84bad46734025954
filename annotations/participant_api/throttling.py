"""Rate limits on participant endpoints (DRF throttles on the Django cache: Redis in
production, so every web process shares the counts).

Rates have defaults here and can be changed per scope with
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (read at request time, so tests can too).
Authenticated calls are counted per participant, not per address: many participants of one
university may share an address. The start endpoint, before any token exists, counts per
address with a rate generous enough for such a shared address.
"""

from __future__ import annotations

from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

DEFAULT_RATES = {
    "participant_start": "60/min",
    "participant": "240/min",  # reads, drafts saved as they type, annotation submits
    "participant_message": "30/min",  # model calls: each costs money
}


class ParticipantRateThrottle(SimpleRateThrottle):
    scope = "participant"

    def get_rate(self) -> str:
        configured = api_settings.DEFAULT_THROTTLE_RATES or {}
        return str(configured.get(self.scope) or DEFAULT_RATES[self.scope])

    def get_cache_key(self, request: Any, view: Any) -> str:
        participant = getattr(getattr(request, "user", None), "participant", None)
        ident = f"p{participant.pk}" if participant is not None else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class MessageRateThrottle(ParticipantRateThrottle):
    scope = "participant_message"


class StartRateThrottle(ParticipantRateThrottle):
    scope = "participant_start"
