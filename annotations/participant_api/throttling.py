"""Rate limits on participant endpoints (DRF throttles on the Django cache: Redis in
production, so every web process shares the counts).

On Redis a throttle counts with one atomic script (``attune_collect/rate_window.py``): one round
trip instead of DRF's read and write, and two requests at once cannot both take the last place.
Any other cache (the embedded setup's in-process one) keeps DRF's own counting.

Rates have defaults here and can be changed per scope with
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (read at request time, so tests can too).
Authenticated calls are counted per participant, not per address: many participants of one
university may share an address. The start endpoint, before any token exists, counts per
address with a rate generous enough for such a shared address, and then per study: a study
admits ``ATTUNE_STUDY_STARTS_PER_MINUTE`` new starts a minute from all addresses together.

An address is ``client_address`` (attune_collect/client_address.py): the connection's, or the
one the deployment's trusted proxies forwarded; never X-Forwarded-For as the client wrote it
(DRF's own ``get_ident`` trusts the whole header when ``NUM_PROXIES`` is unset).
"""

from __future__ import annotations

from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from attune_collect.client_address import client_address, rate_limit_key
from attune_collect.config import attune_config
from attune_collect.rate_window import WindowCount, count_in_window

DEFAULT_RATES = {
    "participant_start": "60/min",
    "participant": "240/min",  # reads, drafts saved as they type, annotation submits
    "participant_message": "30/min",  # model calls: each costs money
    # The app reports each distinct error once per page load: a few a minute is a broken page.
    "participant_client_error": "10/min",
    "participant_client_error_all": "120/min",  # every address and participant together
}


class ParticipantRateThrottle(SimpleRateThrottle):
    scope = "participant"
    window: WindowCount | None = None  # the Redis count of this request, when counted there
    num_requests: int  # set by SimpleRateThrottle from the rate (not in the type stubs)
    duration: int

    def allow_request(self, request: Any, view: Any) -> bool:
        backend = caches[DEFAULT_CACHE_ALIAS]
        if not isinstance(backend, RedisCache):
            return super().allow_request(request, view)
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        self.window = count_in_window(
            backend._cache.get_client(write=True),
            backend.make_and_validate_key(f"{self.key}:window"),  # not DRF's list of times
            self.now,
            self.duration,
            self.num_requests,
        )
        return self.window.admitted

    def wait(self) -> float | None:
        """DRF's advice, from the Redis count: the rest of the window, shared by the places
        that free up in it."""
        if self.window is None:
            return super().wait()
        oldest = self.window.oldest
        remaining = self.duration if oldest is None else self.duration - (self.now - oldest)
        available = self.num_requests - self.window.count + 1
        return remaining / available if available > 0 else None

    def get_rate(self) -> str:
        configured = api_settings.DEFAULT_THROTTLE_RATES or {}
        return str(configured.get(self.scope) or DEFAULT_RATES[self.scope])

    def get_ident(self, request: Any) -> str:
        return rate_limit_key(client_address(request))

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        participant = getattr(getattr(request, "user", None), "participant", None)
        ident = f"p{participant.pk}" if participant is not None else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class MessageRateThrottle(ParticipantRateThrottle):
    scope = "participant_message"


class StartRateThrottle(ParticipantRateThrottle):
    scope = "participant_start"


class StudyStartBudgetThrottle(ParticipantRateThrottle):
    """New starts of one study, whatever their address (the URL's slug: a request for a study
    that does not exist is refused by the view, and the address limit comes first)."""

    scope = "participant_study_start"

    def get_rate(self) -> str:
        configured = api_settings.DEFAULT_THROTTLE_RATES or {}
        return str(configured.get(self.scope) or f"{attune_config().study_starts_per_minute}/min")

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        slug = getattr(view, "kwargs", {}).get("slug")
        return self.cache_format % {"scope": self.scope, "ident": slug} if slug else None


class ClientErrorRateThrottle(ParticipantRateThrottle):
    """Error reports of one participant (or, before a session exists, one address)."""

    scope = "participant_client_error"


class ClientErrorBudgetThrottle(ParticipantRateThrottle):
    """Error reports from everyone together: a flood of them cannot fill the database."""

    scope = "participant_client_error_all"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": "all"}
