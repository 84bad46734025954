"""client_address: the connection's address unless it is a trusted proxy; then the rightmost
X-Forwarded-For hop that is not a trusted proxy. What a client writes is never an identity."""

import dataclasses

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from attune_collect.client_address import client_address, rate_limit_key


def address(remote: str, forwarded: str | None = None) -> str:
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(RequestFactory().get("/", **extra))


@pytest.fixture
def proxies(settings):
    def trust(*networks: str) -> None:
        settings.ATTUNE = dataclasses.replace(settings.ATTUNE, trusted_proxies=networks)

    return trust


def test_by_default_no_header_is_trusted():
    assert address("203.0.113.7", "198.51.100.1") == "203.0.113.7"


def test_a_header_from_an_untrusted_connection_is_ignored(proxies):
    proxies("10.0.0.0/8")
    assert address("203.0.113.7", "10.0.0.1, 198.51.100.1") == "203.0.113.7"


def test_the_rightmost_address_not_a_trusted_proxy_is_taken(proxies):
    proxies("10.0.0.0/8", "192.0.2.1")
    # client forged "198.51.100.1", the outer proxy (192.0.2.1) saw 203.0.113.7, the inner
    # proxy (10.1.2.3) saw the outer one; the connection is the inner one.
    assert address("10.1.2.3", "198.51.100.1, 203.0.113.7, 192.0.2.1") == "203.0.113.7"


def test_a_malformed_hop_stops_the_walk_at_the_last_trusted_address(proxies):
    proxies("10.0.0.0/8")
    assert address("10.0.0.5", "203.0.113.7, not-an-address") == "10.0.0.5"
    assert address("10.0.0.5", "203.0.113.7:4711") == "10.0.0.5"  # a port is not an address


def test_a_trusted_proxy_without_a_header_is_itself(proxies):
    proxies("10.0.0.5")
    assert address("10.0.0.5") == "10.0.0.5"


def test_ipv4_mapped_connections_match_ipv4_proxies(proxies):
    proxies("10.0.0.0/8")
    assert address("::ffff:10.0.0.5", "203.0.113.7") == "203.0.113.7"


def test_an_ipv6_client_is_limited_as_its_64():
    assert rate_limit_key("2001:db8:1:2:aaaa::1") == rate_limit_key("2001:db8:1:2:bbbb::9")
    assert rate_limit_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert rate_limit_key("203.0.113.7") == "203.0.113.7"


def test_a_setting_that_is_no_address_is_refused(settings):
    with pytest.raises(ImproperlyConfigured, match="ATTUNE_TRUSTED_PROXIES"):
        dataclasses.replace(settings.ATTUNE, trusted_proxies=("proxy.internal",))
    with pytest.raises(ImproperlyConfigured, match="ATTUNE_TRUSTED_PROXIES"):
        dataclasses.replace(settings.ATTUNE, trusted_proxies=("10.0.0.5/8",))
