"""Issuing, checking and revoking API tokens.

Who: any active staff user issues tokens for themselves only, for studies they may view now;
revoking is the token's user's (or a superuser's). The token value exists in two places: the
reply to the request that issued it (the admin shows it once) and the caller's script. The
database, the audit log and every log line hold its prefix at most.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from annotations.audit_actions import AuditAction
from annotations.models import Study
from annotations.qa.access import study_scope
from annotations.services.audit import record_audit
from attune_collect.errors import ServiceError
from researcher_api.models import ApiToken, TokenScope

TOKEN_PREFIX = "att_"
MAX_LIFETIME = timedelta(days=366)
# last_used_at is written at most this often per token: one UPDATE per request would make
# every read a write.
LAST_USE_RESOLUTION = timedelta(seconds=60)


class TokenError(ServiceError):
    default_code = "invalid"


@dataclass(frozen=True)
class IssuedToken:
    token: ApiToken
    value: str  # shown once; never stored


def digest_of(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


@transaction.atomic
def issue_token(
    *,
    user: User,
    name: str,
    studies: Sequence[Study],
    scope: str = TokenScope.READ,
    expires_at: datetime,
) -> IssuedToken:
    """A new token of ``user`` for ``studies`` (each one they have a role in now)."""
    if not (user.is_active and user.is_staff):
        raise PermissionDenied("Only active staff users have API tokens.")
    if not studies:
        raise TokenError("Choose at least one study.", field="studies")
    if scope not in TokenScope.values:
        raise TokenError(f"Unknown scope {scope!r}.", field="scope")
    now = timezone.now()
    if expires_at <= now:
        raise TokenError("The expiry must be in the future.", field="expires_at")
    if expires_at > now + MAX_LIFETIME:
        raise TokenError("A token lives a year at most.", field="expires_at")
    user_scope = study_scope(user)
    mine = user_scope.study_ids  # None: a lab-wide user, in every study
    outside = [s.slug for s in studies if mine is not None and s.pk not in mine]
    if outside:
        raise PermissionDenied(f"You have no role in these studies: {', '.join(outside)}.")
    secret = secrets.token_urlsafe(32)
    prefix = secrets.token_hex(4)
    value = f"{TOKEN_PREFIX}{prefix}_{secret}"
    token = ApiToken.objects.create(
        user=user,
        name=name.strip() or "API token",
        prefix=prefix,
        digest=digest_of(value),
        scope=scope,
        issued_lab_wide=not user_scope.limited,
        expires_at=expires_at,
    )
    token.studies.set(studies)
    record_audit(
        AuditAction.RESEARCHER_API_TOKEN_ISSUE,
        target=token,
        actor=user,
        data={
            "prefix": prefix,
            "scope": scope,
            "studies": sorted(s.slug for s in studies),
            "expires_at": expires_at.isoformat(),
        },
    )
    return IssuedToken(token=token, value=value)


@transaction.atomic
def revoke_token(token: ApiToken, *, actor: User) -> ApiToken:
    """Revoke at once: the next request with it is refused (nothing is cached)."""
    if token.user_id != actor.pk and not actor.is_superuser:
        raise PermissionDenied("You may revoke only your own tokens.")
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        record_audit(
            AuditAction.RESEARCHER_API_TOKEN_REVOKE,
            target=token,
            actor=actor,
            data={"prefix": token.prefix},
        )
    return token


@transaction.atomic
def add_study_to_token(token: ApiToken, study: Study, *, actor: User) -> None:
    """A study created through a token joins the token's studies (else it could not see it)."""
    token.studies.add(study)
    record_audit(
        AuditAction.RESEARCHER_API_TOKEN_ADD_STUDY,
        target=token,
        actor=actor,
        data={"prefix": token.prefix, "study": study.slug},
    )


def token_for_value(value: str) -> ApiToken | None:
    """The active token with this value, or None (unknown, malformed, revoked, expired)."""
    if not value.startswith(TOKEN_PREFIX) or len(value) > 200:
        return None
    digest = digest_of(value)
    token = ApiToken.objects.select_related("user").filter(digest=digest).first()
    # The digest is the lookup key; the comparison still runs in constant time.
    if token is None or not hmac.compare_digest(token.digest, digest) or not token.is_active:
        return None
    if not token.user.is_active:
        return None
    return token


def record_use(token: ApiToken) -> None:
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < LAST_USE_RESOLUTION:
        return
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    token.last_used_at = now
