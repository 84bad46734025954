"""Addresses and networks as a deployment writes them (``ATTUNE_TRUSTED_PROXIES``): pure, so
the configuration and the request path parse them the same way."""

from __future__ import annotations

from collections.abc import Iterable
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network

Address = IPv4Address | IPv6Address
Network = IPv4Network | IPv6Network


def parse_networks(values: Iterable[str]) -> tuple[Network, ...]:
    """``10.0.0.5``, ``10.0.0.0/8``, ``2001:db8::/32``...; raises ValueError naming a bad one.

    Host bits are refused (``10.0.0.5/8``): such an entry is a typo more often than not, and
    trusting a whole network by mistake would let anyone in it name any address."""
    networks = []
    for value in values:
        try:
            networks.append(ip_network(value.strip(), strict=True))
        except ValueError:
            raise ValueError(f"{value!r} is not an IP address or network") from None
    return tuple(networks)


def parse_address(value: str) -> Address | None:
    """The address a header or the connection names, or None if it is not a plain address
    (a port, brackets, a name, garbage). An IPv4 address mapped into IPv6 is the IPv4 one."""
    try:
        address = ip_address(value.strip())
    except ValueError:
        return None
    if isinstance(address, IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def in_networks(address: Address, networks: Iterable[Network]) -> bool:
    return any(address.version == network.version and address in network for network in networks)
