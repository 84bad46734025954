"""The client's address: the one function every throttle, stream limit and audit entry asks.

By default it is the connection's address (``REMOTE_ADDR``, which Django's ASGI handler fills
from the ASGI scope's ``client``): a header the client writes (``X-Forwarded-For``) is never
trusted unless the deployment names its proxies (see docs/security.md).

With ``ATTUNE_TRUSTED_PROXIES`` set, a request whose connection comes from one of those proxies
is the request of the address the proxies say they forwarded: ``X-Forwarded-For`` read from the
right (each proxy appends the address it received from), trusted proxies skipped, the first
address that is not a trusted proxy taken. Everything left of it was written by the client and
is never read: a client cannot make itself "a new address" by writing the header.
"""

from __future__ import annotations

from functools import lru_cache
from ipaddress import ip_network

from django.http import HttpRequest

from attune_collect.config import attune_config
from attune_collect.networks import Address, Network, in_networks, parse_address, parse_networks

UNKNOWN_ADDRESS = "unknown"
IPV6_GROUP_PREFIX = 64  # one IPv6 subscriber gets a /64 (RFC 6177): one address to count


@lru_cache(maxsize=4)
def _networks(values: tuple[str, ...]) -> tuple[Network, ...]:
    return parse_networks(values)  # checked at start-up (config.py); parsed once per value


def client_address(request: HttpRequest) -> str:
    """The address a request came from, as this deployment can vouch for it."""
    remote = str(request.META.get("REMOTE_ADDR") or "")
    trusted = _networks(attune_config().trusted_proxies)
    connection = parse_address(remote)
    if connection is None:
        return remote or UNKNOWN_ADDRESS
    if not trusted or not in_networks(connection, trusted):
        return str(connection)
    return str(_forwarded_for(request, connection, trusted))


def _forwarded_for(request: HttpRequest, proxy: Address, trusted: tuple[Network, ...]) -> Address:
    """The rightmost address of X-Forwarded-For that is not a trusted proxy. A malformed entry
    is not trusted and not an address: the walk stops there at the last address a trusted
    proxy vouched for (its own), so garbage never becomes an identity of its own."""
    # Several X-Forwarded-For headers arrive joined by commas (Django's ASGI request does it).
    hops = [hop for hop in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    vouched = proxy
    for hop in reversed(hops):
        address = parse_address(hop)
        if address is None:
            return vouched
        if not in_networks(address, trusted):
            return address
        vouched = address
    return vouched  # every hop a trusted proxy (or no header): the innermost one


def rate_limit_key(address: str) -> str:
    """What a per-address limit counts: the address, or an IPv6 address's /64 (one subscriber
    holds a whole /64 and could otherwise count as 2**64 clients)."""
    parsed = parse_address(address)
    if parsed is None or parsed.version == 4:
        return address
    return str(ip_network(f"{parsed}/{IPV6_GROUP_PREFIX}", strict=False))
