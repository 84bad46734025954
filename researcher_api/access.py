"""What a token may do, decided afresh at every request.

A token's grant is the intersection of:
- its own studies and scope (read, or read and write);
- what its user holds *now*: an active staff account, the role permission (``user.has_perm``)
  and the study scope of the admin and the QA pages (``annotations/qa/access.py``).

So a user removed from a study, or whose role loses a permission, loses it through every token
at once. One more rule: a user with no membership works in every study; a token issued while
its user was limited to some studies never widens to every study when the last membership goes.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from annotations.qa.access import study_scope
from researcher_api.models import ApiToken

_CACHE = "_researcher_api_study_ids"


def _token_study_ids(token: ApiToken) -> frozenset[int]:
    cached = getattr(token, _CACHE, None)
    if cached is None:
        cached = frozenset(token.studies.values_list("pk", flat=True))
        setattr(token, _CACHE, cached)
    return cached


def forget_studies(token: ApiToken) -> None:
    """After the token's studies changed within the request (a study it created)."""
    if hasattr(token, _CACHE):
        delattr(token, _CACHE)


def _user_may(token: ApiToken, perm: str, write: bool) -> bool:
    user: User = token.user
    if write and not token.can_write:
        return False
    if not (user.is_active and user.is_staff and user.has_perm(perm)):
        return False
    scope = study_scope(user)
    # Limited when issued, unlimited now (last membership removed): nothing.
    return scope.limited or token.issued_lab_wide or user.is_superuser


def studies_allowing(token: ApiToken, perm: str, *, write: bool = False) -> frozenset[int]:
    """The token's studies where it may use ``perm`` now."""
    if not _user_may(token, perm, write):
        return frozenset()
    scope = study_scope(token.user)
    return frozenset(s for s in _token_study_ids(token) if scope.allows(perm, s))


def allows(token: ApiToken, perm: str, study_id: int | None, *, write: bool = False) -> bool:
    """``perm`` in ``study_id``; without a study (creating one): anywhere in the user's scope."""
    if study_id is None:
        return _user_may(token, perm, write) and study_scope(token.user).allows(perm, None)
    return study_id in studies_allowing(token, perm, write=write)


def allows_all(
    token: ApiToken, perm: str, study_ids: Iterable[int], *, write: bool = False
) -> bool:
    """``perm`` in every one of ``study_ids`` (a release, a run over it): a row that spans
    studies is open only when none of them is outside the grant."""
    ids = set(study_ids)
    return bool(ids) and ids <= studies_allowing(token, perm, write=write)


def require(token: ApiToken, perm: str, study_id: int | None, *, write: bool = False) -> None:
    if not allows(token, perm, study_id, write=write):
        raise PermissionDenied(_refusal(token, write))


def require_all(
    token: ApiToken, perm: str, study_ids: Iterable[int], *, write: bool = False
) -> None:
    if not allows_all(token, perm, study_ids, write=write):
        raise PermissionDenied(_refusal(token, write))


def _refusal(token: ApiToken, write: bool) -> str:
    if write and not token.can_write:
        return "This token is read-only."
    return "This token's user may not do this in this study."


def visible_study_ids(token: ApiToken) -> frozenset[int]:
    """The token's studies where its user holds any role now (the ones it may name; what it
    may do in each is a permission check of its own)."""
    user: User = token.user
    if not (user.is_active and user.is_staff):
        return frozenset()
    scope = study_scope(user)
    if not (scope.limited or token.issued_lab_wide or user.is_superuser):
        return frozenset()
    ids = _token_study_ids(token)
    return ids if scope.study_ids is None else ids & scope.study_ids
