"""Participant session tokens: issued at start, stored as a sha256 hash, checked on every call.

Tokens carry 256 random bits, so a plain (unsalted) hash is enough: nothing can be guessed
from it, and a leaked table of hashes opens no session.
"""

from __future__ import annotations

import hashlib
import secrets

from annotations.models import Participant, ParticipantSession
from attune_collect.compiled_query import CompiledQuery

TOKEN_BYTES = 32
# Tokens are url-safe base64 (43 characters for 32 bytes); anything else is refused unread.
MAX_TOKEN_CHARS = 128


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def issue_token(participant: Participant) -> str:
    """A new session for the participant; returns the token (the only time it exists in clear)."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    ParticipantSession.objects.create(participant=participant, token_hash=hash_token(token))
    return token


# Every participant request starts here: its SQL is built once per connection, not per request
# (attune_collect/compiled_query.py). The hash is unique: no ordering, at most one row.
_LIVE_SESSION = CompiledQuery(
    lambda token_hash: ParticipantSession.objects.select_related("participant__study").filter(
        token_hash=token_hash, revoked_at__isnull=True
    )[:1]
)


def participant_for_token(token: str) -> Participant | None:
    """The participant a live token belongs to (with its study), or None."""
    if not token or len(token) > MAX_TOKEN_CHARS:
        return None
    session = _LIVE_SESSION.first(hash_token(token))
    return None if session is None else session.participant
