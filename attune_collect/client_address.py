"""The client's address: the one function every throttle, stream limit and audit entry asks.

By default it is the connection's address (``REMOTE_ADDR``, which Django's ASGI handler fills
from the ASGI scope's ``client``): a header the client writes (``X-Forwarded-For``) is never
trusted unless the deployment names its proxies (see docs/security.md).
"""

from __future__ import annotations

from django.http import HttpRequest

UNKNOWN_ADDRESS = "unknown"


def client_address(request: HttpRequest) -> str:
    """The address a request came from, as this deployment can vouch for it."""
    return str(request.META.get("REMOTE_ADDR") or UNKNOWN_ADDRESS)
