"""Study setup by a staff user, within their study scope: the admin's write path for studies
and model endpoints.

``save_setup`` and ``delete_setup`` (annotations/services/setup.py) validate, write and audit;
they know nothing of memberships (``annotations.services`` may not import ``annotations.qa``).
These functions authorise the actor first, by the rules of ``endpoint_scope.py``, and raise
PermissionDenied with nothing written when the change reaches a study outside the actor's
scope:

- an endpoint is added only by a lab-wide user or for one of the actor's studies, and changed
  or deleted only by a user allowed in every study that uses it (so a researcher of study A
  cannot point study B's endpoint, or one A shares with B, at another server or key);
- a study links (pool, improver, moderation) only endpoints the actor may view: linking one
  would open its page to the study's members.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import models, transaction

from annotations.models import ModelEndpoint, Study
from annotations.qa.access import has_study_perm, study_scope
from annotations.qa.endpoint_scope import endpoint_allows, viewable_endpoints
from annotations.services.setup import SetupObject, delete_setup, save_setup

ADD_ENDPOINT = "annotations.add_modelendpoint"


def _authorise_endpoint(endpoint: ModelEndpoint, actor: User) -> None:
    made_for = endpoint.created_for_id
    if endpoint.pk is None:
        scope = study_scope(actor)
        if scope.limited and made_for is None:
            raise PermissionDenied("Choose the study this endpoint is for.")
        if not has_study_perm(actor, ADD_ENDPOINT, made_for if scope.limited else None):
            raise PermissionDenied("You may not add model endpoints for this study.")
        return
    stored = ModelEndpoint.objects.get(pk=endpoint.pk)
    also = frozenset() if made_for is None else frozenset({made_for})
    if not endpoint_allows(actor, "change", stored, also=also):
        raise PermissionDenied(
            "This endpoint is used by a study you may not change: only someone allowed in "
            "every study that uses it may change it."
        )


def _linked_endpoints(study: Study, pool: Iterable[models.Model] | None) -> set[int]:
    linked = {study.improver_endpoint_id, study.moderation_endpoint_id} - {None}
    if pool is not None:
        linked.update(endpoint.pk for endpoint in pool)
    return {pk for pk in linked if pk is not None}


def _authorise_study(
    study: Study, actor: User, many_to_many: dict[str, Iterable[models.Model]] | None
) -> None:
    perm = "annotations.add_study" if study.pk is None else "annotations.change_study"
    if not has_study_perm(actor, perm, study.pk):
        raise PermissionDenied("You may not change this study.")
    linked = _linked_endpoints(study, (many_to_many or {}).get("model_pool"))
    if study.pk is not None:  # what it already links is its own: only new links are checked
        stored = Study.objects.get(pk=study.pk)
        linked -= _linked_endpoints(stored, stored.model_pool.all())
    if not linked:
        return
    visible = viewable_endpoints(ModelEndpoint.objects.filter(pk__in=linked), actor)
    if visible.count() != len(linked):
        raise PermissionDenied("A chosen model endpoint is not one of your studies'.")


@transaction.atomic
def save_setup_as[S: (Study, ModelEndpoint)](
    obj: S, *, actor: User, many_to_many: dict[str, Iterable[models.Model]] | None = None
) -> S:
    """``save_setup`` for a staff user, refused outside their study scope."""
    if isinstance(obj, ModelEndpoint):
        _authorise_endpoint(obj, actor)
    else:
        _authorise_study(obj, actor, many_to_many)
    return save_setup(obj, actor=actor, many_to_many=many_to_many)


@transaction.atomic
def delete_setup_as(obj: SetupObject, *, actor: User) -> None:
    """``delete_setup`` for a staff user: an endpoint only by one allowed in all its studies."""
    if isinstance(obj, ModelEndpoint):
        allowed = endpoint_allows(actor, "delete", obj)
    elif isinstance(obj, Study):
        allowed = has_study_perm(actor, "annotations.delete_study", obj.pk)
    else:
        allowed = actor.has_perm(f"annotations.delete_{obj._meta.model_name}")
    if not allowed:
        raise PermissionDenied("You may not delete this: a study outside yours uses it.")
    delete_setup(obj, actor=actor)
