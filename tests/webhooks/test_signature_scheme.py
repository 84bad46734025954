"""The signature scheme (Standard Webhooks): what a receiver checks, and what it refuses."""

import pytest

from webhooks import signing

BODY = b'{"id":"evt_1","type":"release.frozen","data":{"release_id":3}}'


def test_a_signed_request_verifies_with_its_secret():
    secret = signing.new_secret()
    headers = signing.signed_headers(secret, "evt_1", BODY, timestamp=1_700_000_000)
    signing.verify(secret, headers, BODY, now=1_700_000_010)  # raises if not


def test_another_secret_fails_verification():
    headers = signing.signed_headers(signing.new_secret(), "evt_1", BODY)
    with pytest.raises(signing.VerificationError):
        signing.verify(signing.new_secret(), headers, BODY)


def test_a_changed_body_or_event_id_fails_verification():
    secret = signing.new_secret()
    headers = signing.signed_headers(secret, "evt_1", BODY)
    with pytest.raises(signing.VerificationError):
        signing.verify(secret, headers, BODY.replace(b"3", b"4"))
    with pytest.raises(signing.VerificationError):
        signing.verify(secret, {**headers, "webhook-id": "evt_2"}, BODY)


def test_a_stale_timestamp_fails_verification():
    secret = signing.new_secret()
    headers = signing.signed_headers(secret, "evt_1", BODY, timestamp=1_700_000_000)
    with pytest.raises(signing.VerificationError):
        signing.verify(secret, headers, BODY, now=1_700_000_000 + signing.TOLERANCE_S + 1)


def test_the_signature_is_hmac_sha256_of_id_timestamp_and_body():
    """The documented recipe (docs/webhooks.md), written out independently."""
    import base64
    import hashlib
    import hmac

    secret = signing.new_secret()
    key = base64.b64decode(secret.removeprefix("whsec_"))
    expected = base64.b64encode(
        hmac.new(key, b"evt_1.1700000000." + BODY, hashlib.sha256).digest()
    ).decode()
    assert signing.signature(secret, "evt_1", 1_700_000_000, BODY) == f"v1,{expected}"
