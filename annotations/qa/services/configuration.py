"""Saving QA configuration (memberships, study settings, attention checks), audited.

The admin's save and delete go through here, so a change of who may review what is in the
audit log like every other QA change.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import models, transaction
from django.forms.models import model_to_dict

from annotations.services.audit import record_audit


def _snapshot(obj: models.Model) -> dict:
    return {key: str(value) for key, value in model_to_dict(obj).items()}


@transaction.atomic
def save_configuration(obj: models.Model, *, actor: User) -> models.Model:
    created = obj.pk is None
    obj.full_clean()
    obj.save()
    record_audit(
        f"qa.{obj._meta.model_name}.{'create' if created else 'change'}",
        target=obj,
        actor=actor,
        data=_snapshot(obj),
    )
    return obj


@transaction.atomic
def delete_configuration(obj: models.Model, *, actor: User) -> None:
    record_audit(f"qa.{obj._meta.model_name}.delete", target=obj, actor=actor, data=_snapshot(obj))
    obj.delete()
