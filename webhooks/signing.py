"""Signing and verifying a delivery: the Standard Webhooks scheme (standardwebhooks.com).

Pure (no Django). A secret is ``whsec_`` followed by the base64 of 32 random bytes; the key is
those bytes. Each request carries three headers:

- ``webhook-id``: the event id (the same on every attempt and replay: receivers dedupe by it);
- ``webhook-timestamp``: Unix seconds when this attempt was signed;
- ``webhook-signature``: ``v1,`` + base64(HMAC-SHA256(key, f"{id}.{timestamp}.{body}")),
  space-separated when several (a receiver accepts any that matches).

The signed content is the timestamp and the exact body bytes, with the id in front (Standard
Webhooks' choice: an attempt cannot be relabelled as another event). A receiver refuses a
timestamp more than ``TOLERANCE_S`` away from its clock (a captured request replayed later).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping

SECRET_PREFIX = "whsec_"
TOLERANCE_S = 300


class VerificationError(Exception):
    """The request is not signed by the secret, or its timestamp is out of tolerance."""


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode("ascii")


def _key(secret: str) -> bytes:
    if not secret.startswith(SECRET_PREFIX):
        raise ValueError("a webhook secret starts with whsec_")
    return base64.b64decode(secret[len(SECRET_PREFIX) :])


def signature(secret: str, event_id: str, timestamp: int, body: bytes) -> str:
    signed = f"{event_id}.{timestamp}.".encode() + body
    digest = hmac.new(_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def signed_headers(secret: str, event_id: str, body: bytes, timestamp: int | None = None) -> dict:
    ts = int(time.time()) if timestamp is None else timestamp
    return {
        "webhook-id": event_id,
        "webhook-timestamp": str(ts),
        "webhook-signature": signature(secret, event_id, ts, body),
    }


def verify(
    secret: str, headers: Mapping[str, str], body: bytes, *, now: float | None = None
) -> None:
    """Raise ``VerificationError`` unless ``headers`` sign ``body`` with ``secret`` in time.
    ``headers`` keys are lower case (as in the receiver example of docs/webhooks.md)."""
    try:
        event_id = headers["webhook-id"]
        timestamp = int(headers["webhook-timestamp"])
        given = headers["webhook-signature"].split()
    except (KeyError, ValueError) as error:
        raise VerificationError("missing or malformed webhook headers") from error
    current = time.time() if now is None else now
    if abs(current - timestamp) > TOLERANCE_S:
        raise VerificationError("timestamp outside the tolerance")
    expected = signature(secret, event_id, timestamp, body)
    if not any(hmac.compare_digest(expected, candidate) for candidate in given):
        raise VerificationError("no signature matches")
