"""The study scope of model endpoints and configuration snapshots.

An endpoint names the variable holding a provider key and carries a system prompt, and every
participant of the studies that use it talks to it: whoever may change it decides where those
participants' messages go. So, for a user limited to some studies (``access.py``):

- view an endpoint: the role permission in at least one of its studies;
- change or delete it: the role permission in every one of its studies;
- an endpoint of no study (made from the command line, or by a lab-wide user): lab-wide
  users only; a limited researcher adds an endpoint *for* one of their studies
  (``ModelEndpoint.created_for``), which makes it that study's from the start.

A configuration snapshot (a system prompt and parameters, as a conversation ran) is viewable
with the permission in one of the studies whose conversations ran under it. Users without
memberships and superusers: every endpoint and snapshot, by their role permission alone.
Which studies an endpoint belongs to: ``annotations.services.endpoint_studies``.
"""

from __future__ import annotations

from django.db.models import QuerySet

from annotations.models import ModelEndpoint
from annotations.qa.access import study_scope
from annotations.services.endpoint_studies import (
    configs_of_studies,
    endpoint_study_ids,
    endpoints_of_studies,
)

VIEW_ENDPOINT = "annotations.view_modelendpoint"
VIEW_CONFIG = "annotations.view_modelconfig"


def viewable_endpoints(queryset: QuerySet, user, perm: str = VIEW_ENDPOINT) -> QuerySet:
    """The endpoints of ``queryset`` with at least one study where ``user`` holds ``perm``."""
    allowed = study_scope(user).studies_allowing(perm)
    if allowed is None:
        return queryset
    return endpoints_of_studies(queryset, allowed)


def viewable_configs(queryset: QuerySet, user, perm: str = VIEW_CONFIG) -> QuerySet:
    """The snapshots of ``queryset`` a conversation of a study where ``user`` holds ``perm``
    ran under."""
    allowed = study_scope(user).studies_allowing(perm)
    if allowed is None:
        return queryset
    return configs_of_studies(queryset, allowed)


def endpoint_allows(
    user, action: str, endpoint: ModelEndpoint, *, also: frozenset[int] = frozenset()
) -> bool:
    """``annotations.<action>_modelendpoint`` on ``endpoint``: in one of its studies to view,
    in every one (and in ``also``, studies a change would add) to change or delete."""
    perm = f"annotations.{action}_modelendpoint"
    if not (user.is_active and user.has_perm(perm)):
        return False
    scope = study_scope(user)
    if not scope.limited:
        return True
    studies = endpoint_study_ids(endpoint) | also
    if not studies:
        return False  # lab-wide until a study uses it
    if action == "view":
        return any(scope.allows(perm, study) for study in studies)
    return all(scope.allows(perm, study) for study in studies)
