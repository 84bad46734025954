"""The permission helper every QA view uses: a role permission, limited to the user's studies.

``user.has_perm`` answers "may this role do it at all"; the study scope answers "here?". A user
with study memberships is limited to those studies, and in each to what the membership's role
allows (a membership narrows, it never widens). A user without memberships, and a superuser,
may act in every study.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest

from annotations.models import Study
from annotations.qa.models import StudyMembership

_CACHE_ATTRIBUTE = "_qa_study_scope"


@dataclass(frozen=True)
class StudyScope:
    limited: bool
    roles: dict[int, str]  # study id -> role, when limited
    role_permissions: dict[str, frozenset[str]]  # role -> {"app_label.codename"}

    @property
    def study_ids(self) -> frozenset[int] | None:
        """The studies the user may see, or None for all of them."""
        return frozenset(self.roles) if self.limited else None

    def allows(self, perm: str, study_id: int | None) -> bool:
        if not self.limited:
            return True
        if study_id is None:  # a page across studies: shown, filtered to the user's studies
            return any(perm in self.role_permissions.get(role, ()) for role in self.roles.values())
        role = self.roles.get(study_id)
        return role is not None and perm in self.role_permissions.get(role, frozenset())

    def studies_allowing(self, perm: str) -> frozenset[int] | None:
        if not self.limited:
            return None
        return frozenset(
            s for s, role in self.roles.items() if perm in self.role_permissions.get(role, ())
        )


def study_scope(user) -> StudyScope:
    """The user's study scope, computed once per request (cached on the user object)."""
    cached = getattr(user, _CACHE_ATTRIBUTE, None)
    if cached is not None:
        return cached
    roles: dict[int, str] = {}
    if user.is_authenticated and not user.is_superuser:
        roles = dict(StudyMembership.objects.filter(user=user).values_list("study_id", "role"))
    permissions: dict[str, set[str]] = defaultdict(set)
    if roles:
        rows = Permission.objects.filter(group__name__in=set(roles.values())).values_list(
            "group__name", "content_type__app_label", "codename"
        )
        for group, app_label, codename in rows:
            permissions[group].add(f"{app_label}.{codename}")
    scope = StudyScope(
        limited=bool(roles),
        roles=roles,
        role_permissions={role: frozenset(perms) for role, perms in permissions.items()},
    )
    setattr(user, _CACHE_ATTRIBUTE, scope)
    return scope


def has_study_perm(user, perm: str, study_id: int | None = None) -> bool:
    return user.is_active and user.has_perm(perm) and study_scope(user).allows(perm, study_id)


def has_perm_in_all(user, perm: str, study_ids) -> bool:
    """``perm`` in every one of ``study_ids``: a row that spans studies (a release, a run over
    it) is open to a limited user only when it holds nothing of a study outside the scope."""
    if not (user.is_active and user.has_perm(perm)):
        return False
    scope = study_scope(user)
    return all(scope.allows(perm, study_id) for study_id in study_ids)


def authorise(request: HttpRequest, perm: str, study_id: int | None = None) -> StudyScope:
    """Raise PermissionDenied unless the user holds ``perm`` (in that study, if one is given)."""
    if not has_study_perm(request.user, perm, study_id):
        raise PermissionDenied
    return study_scope(request.user)


def limit_to_studies(queryset: QuerySet, user, perm: str, lookup: str = "study") -> QuerySet:
    """Keep the rows of the studies where ``user`` holds ``perm``."""
    allowed = study_scope(user).studies_allowing(perm)
    if allowed is None:
        return queryset
    return queryset.filter(**{f"{lookup}__in": allowed})


def limit_to_all_studies(queryset: QuerySet, user, perm: str, lookup: str) -> QuerySet:
    """Keep the rows whose every study (``lookup`` is many-valued, e.g. ``studies``) is one
    where ``user`` holds ``perm``; rows of no study at all are kept."""
    allowed = study_scope(user).studies_allowing(perm)
    if allowed is None:
        return queryset
    return queryset.exclude(**{f"{lookup}__in": Study.objects.exclude(pk__in=allowed)})


def study_id_of(obj: object, lookup: str) -> int | None:
    """The study id of a row, by the lookup its scoped admin filters on ("pk" for a study,
    "study", "conversation__study", ...): the related objects walked, the last id read."""
    if lookup == "pk":
        return getattr(obj, "pk", None)
    *path, last = lookup.split("__")
    for name in path:
        obj = getattr(obj, name, None)
        if obj is None:
            return None
    return getattr(obj, f"{last}_id", None)
