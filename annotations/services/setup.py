"""One write path for study setup: creating or editing a Study, ModelEndpoint or Instrument.

``save_setup`` validates (``full_clean``, which runs each model's own rules), refuses changes to
what data already depends on, writes, and records one audit entry with every changed field's
value before and after; ``delete_setup`` audits what a deleted object held. The admin calls
them (StudyAdmin, ModelEndpointAdmin, InstrumentAdmin; for studies and endpoints through
``annotations/qa/services/scoped_setup.py``, which first authorises the user in the studies
concerned), and so do the services that create setup objects. No secret reaches the audit log: a model
endpoint holds only the *name* of its key's variable, and an API base is recorded without
user info or query.

What stays fixed once data depends on it:
- an instrument used by a study: everything (a change is a new version; ``Instrument.save``
  refuses too);
- a study with participants: its slug (recruitment links) and instrument (every answer was
  given to that instrument);
- an endpoint with conversations: alias, provider and model names (exports name the model a
  conversation had). Its prompt and parameters may change: conversations keep the
  configuration snapshot they opened with (services/model_configs.py).

An endpoint whose key variable is not allowed (``DJANGO_SECRET_KEY``...) or whose parameters
hold a credential is refused with a ``SetupError`` before anything else, whoever calls (the
admin's form shows the same rule from the model's validation).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models, transaction

from annotations.models import AuditEntry, Instrument, ModelEndpoint, Study
from annotations.models.endpoint import endpoint_secret_problems
from annotations.services.audit import record_audit
from annotations.services.languages import stamp_translations
from attune_collect.errors import ServiceError

SetupObject = Study | ModelEndpoint | Instrument


class SetupError(ServiceError):
    """A setup write refused by a security rule (nothing written)."""

    default_code = "setup_refused"


def frozen_fields(obj: SetupObject) -> tuple[str, ...]:
    """Fields of the stored ``obj`` that may no longer change, because data depends on them."""
    if obj.pk is None:
        return ()
    if isinstance(obj, Instrument):
        return ("name", "version", "description", "definition") if obj.is_in_use() else ()
    if isinstance(obj, Study):
        return ("slug", "instrument") if obj.participants.exists() else ()
    if isinstance(obj, ModelEndpoint):
        in_use = obj.conversations.exists()
        return ("alias", "provider", "model_name", "litellm_model") if in_use else ()
    raise TypeError(f"{type(obj).__name__} is not a setup object")


def _redact_url(value: str) -> str:
    """An address without user info or query (either may carry a credential)."""
    if not value:
        return value
    parts = urlsplit(value)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _field_value(obj: models.Model, field: models.Field) -> Any:
    value = field.value_from_object(obj)
    if isinstance(field, models.URLField):
        return _redact_url(value or "")
    if isinstance(value, str | int | float | bool | list | dict) or value is None:
        return value
    return field.value_to_string(obj)


def setup_state(obj: SetupObject) -> dict[str, Any]:
    """The editable fields of ``obj`` as JSON values (many-to-many as sorted primary keys)."""
    state = {
        f.name: _field_value(obj, f)
        for f in obj._meta.concrete_fields
        if f.editable and not f.primary_key
    }
    if obj.pk is not None:
        for field in obj._meta.many_to_many:
            state[field.name] = sorted(getattr(obj, field.name).values_list("pk", flat=True))
    return state


def _changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: {"before": before.get(name), "after": value}
        for name, value in after.items()
        if before.get(name) != value
    }


@transaction.atomic
def save_setup[S: (Study, ModelEndpoint, Instrument)](
    obj: S,
    *,
    actor: User | None = None,
    actor_label: str | None = None,
    many_to_many: dict[str, Iterable[models.Model]] | None = None,
) -> S:
    """Validate, write and audit one setup object (and its many-to-many fields, if given).

    Raises ValidationError naming the field, or SetupError for an endpoint's refused key
    variable or credential in its parameters; then nothing is written.
    """
    if isinstance(obj, ModelEndpoint):
        problems = endpoint_secret_problems(obj)
        if problems:
            raise SetupError(
                "; ".join(problems.values()), code="secret_refused", field=next(iter(problems))
            )
    created = obj.pk is None
    stored = None if created else type(obj).objects.get(pk=obj.pk)
    before = {} if stored is None else setup_state(stored)
    if stored is not None:
        fields = {field.name: field for field in obj._meta.concrete_fields}
        frozen = [
            name
            for name in frozen_fields(stored)
            if _field_value(stored, fields[name]) != _field_value(obj, fields[name])
        ]
        if frozen:
            raise ValidationError(
                {
                    name: "Data collected under this value depends on it; it cannot change now."
                    for name in frozen
                }
            )
    if isinstance(obj, Study) and isinstance(obj.translations, dict):
        stamp_translations(obj, stored.translations if isinstance(stored, Study) else {})
    obj.full_clean(exclude=["content_hash"] if isinstance(obj, Instrument) else None)
    obj.save()
    for name, values in (many_to_many or {}).items():
        getattr(obj, name).set(list(values))
    changes = _changes(before, setup_state(obj))
    if created or changes:
        model = obj._meta.model_name
        record_audit(
            f"annotations.{model}.{'create' if created else 'update'}",
            target=obj,
            actor=actor,
            actor_label=actor_label,
            data={"changes": changes},
        )
    return obj


@transaction.atomic
def delete_setup(
    obj: SetupObject, *, actor: User | None = None, actor_label: str | None = None
) -> None:
    """Delete one setup object, auditing what it held (its fields, as before/after).

    Rows that data depends on are protected by their foreign keys: Django's ProtectedError
    then leaves everything as it was, the audit entry included."""
    changes = {name: {"before": value, "after": None} for name, value in setup_state(obj).items()}
    # Recorded first, so the entry names its target (the endpoints' entries are hidden by
    # target type); a refused delete rolls it back with the transaction.
    record_audit(
        f"annotations.{obj._meta.model_name}.delete",
        target=obj,
        actor=actor,
        actor_label=actor_label,
        data={"changes": changes},
    )
    obj.delete()


def setup_history(obj: SetupObject) -> list[AuditEntry]:
    """Every audit entry about ``obj``, newest first (what the admin's history shows)."""
    if obj.pk is None:
        return []
    return list(AuditEntry.objects.filter(target_type=obj._meta.label_lower, target_id=str(obj.pk)))
