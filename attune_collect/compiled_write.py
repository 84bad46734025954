"""Single-row INSERTs and UPDATEs with their SQL written once per model and field list.

``Model.save()`` builds its way to one statement afresh on every call: ``save_base`` and
``_save_table`` pick the fields, the manager makes a QuerySet, then a new ``InsertQuery`` or
``UpdateQuery`` (its WHERE clause through ``filter(pk=...)``) and a compiler that writes the
SQL. A chat message writes about six rows that way (its turn, the reply on the turn, the
annotation step and its answers, three audit entries), and in a profile of the web process
under ``benchmarks/chat_load.py`` those layers, not the database, were most of each write's
CPU (issue 16). ``insert`` and ``update`` keep the SQL of each model and field list and run it
with the values of the call; ``benchmarks/compiled_queries.py`` measures both ways::

    entry = insert(AuditEntry(action="annotations.turn.reply", ...))  # obj.save() for a new row
    update(turn, ["status", "model_reply"])  # obj.save(update_fields=[...])

What they keep of ``save()``: each field's ``pre_save`` (``auto_now``, ``auto_now_add``) and
``get_db_prep_save`` (the database's form of the value), the check that no related object is
unsaved, a database error marking the enclosing ``atomic`` block for rollback, the instance's
``_state`` afterwards, the primary key set from ``RETURNING`` (or the database's last insert
id), and ``NotUpdated`` when an UPDATE finds no row. The statement runs through Django's cursor,
so its query log, ``django_assert_num_queries`` and the broken-transaction check see it.

Where ``save()`` could do more, they call it instead, so the result is always the ORM's: a model
that overrides ``save()``, has parent models, ``order_with_respect_to``, generated or other
database-returning fields, or a field whose placeholder is its own (``get_placeholder``); a
``pre_save``/``post_save`` receiver for the model; an insert whose primary key is already set;
a value that is an expression (``F()``, ``Now()``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Field, Model
from django.db.models.signals import post_save, pre_save

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class _Statement:
    sql: str
    fields: tuple[Field, ...]  # the columns' fields, in the SQL's order
    returns_pk: bool  # INSERT ... RETURNING the primary key


_statements: dict[tuple[Any, ...], _Statement | None] = {}  # None: the model takes save()
_lock = threading.Lock()


def insert(obj: M) -> M:
    """INSERT a new instance as ``obj.save()`` would; returns it, its primary key set."""
    model = type(obj)
    meta = model._meta
    statement = (
        _statement(("insert", model), _insert_sql, model)
        if getattr(obj, meta.pk.attname) is None
        else None
    )
    if statement is None or _has_receivers(model):
        obj.save(force_insert=True)
        return obj
    obj._prepare_related_fields_for_save(operation_name="save")
    connection = connections[DEFAULT_DB_ALIAS]
    params = _params(obj, statement.fields, connection, add=True)
    if params is None:  # an expression among the values: Django compiles it
        obj.save(force_insert=True)
        return obj
    with transaction.mark_for_rollback_on_error(DEFAULT_DB_ALIAS):
        with connection.cursor() as cursor:
            cursor.execute(statement.sql, params)
            if statement.returns_pk:
                pk = cursor.fetchone()[0]
            else:
                pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
    for converter in meta.pk.get_db_converters(connection):
        pk = converter(pk, meta.pk, connection)
    setattr(obj, meta.pk.attname, pk)
    obj._state.adding = False
    obj._state.db = DEFAULT_DB_ALIAS
    return obj


def update(obj: Model, field_names: Iterable[str]) -> None:
    """UPDATE these fields of a stored instance as ``obj.save(update_fields=...)`` would."""
    model = type(obj)
    names = tuple(sorted(set(field_names)))
    if not names:
        raise ValueError("update() needs at least one field")
    statement = _statement(("update", model, names), _update_sql, model, names)
    if statement is None or _has_receivers(model):
        obj.save(update_fields=names)
        return
    obj._prepare_related_fields_for_save(operation_name="save", fields=statement.fields)
    connection = connections[DEFAULT_DB_ALIAS]
    params = _params(obj, statement.fields, connection, add=False)
    if params is None:
        obj.save(update_fields=names)
        return
    params.append(model._meta.pk.get_db_prep_value(obj.pk, connection))
    # As in save(), a failed update (NotUpdated too) marks the atomic block for rollback.
    with transaction.mark_for_rollback_on_error(DEFAULT_DB_ALIAS):
        with connection.cursor() as cursor:
            cursor.execute(statement.sql, params)
            updated = cursor.rowcount
        if not updated:
            raise model.NotUpdated("Save with update_fields did not affect any rows.")
    obj._state.adding = False
    obj._state.db = DEFAULT_DB_ALIAS


def _params(obj: Model, fields: tuple[Field, ...], connection: Any, *, add: bool) -> list | None:
    params = []
    for field in fields:
        value = field.pre_save(obj, add)
        if hasattr(value, "resolve_expression"):
            return None
        params.append(field.get_db_prep_save(value, connection=connection))
    return params


def _has_receivers(model: type[Model]) -> bool:
    return pre_save.has_listeners(model) or post_save.has_listeners(model)


def _statement(key: tuple[Any, ...], write: Any, *args: Any) -> _Statement | None:
    try:
        return _statements[key]
    except KeyError:
        pass
    with _lock:
        if key not in _statements:
            _statements[key] = write(*args) if _plain(args[0]) else None
        return _statements[key]


def _plain(model: type[Model]) -> bool:
    """Whether ``save()`` does nothing for this model beyond what ``insert``/``update`` do."""
    meta = model._meta
    return (
        model.save is Model.save
        and model.save_base is Model.save_base
        and not meta.parents
        and not meta.proxy
        and meta.order_with_respect_to is None
        and tuple(meta.db_returning_fields) == (meta.pk,)
        and not any(
            field.generated or hasattr(field, "get_placeholder")
            for field in meta.local_concrete_fields
        )
    )


def _quote(name: str) -> str:
    return connections[DEFAULT_DB_ALIAS].ops.quote_name(name)


def _insert_sql(model: type[Model]) -> _Statement | None:
    meta = model._meta
    connection = connections[DEFAULT_DB_ALIAS]
    fields = tuple(f for f in meta.local_concrete_fields if f is not meta.auto_field)
    if meta.auto_field is None or not fields:
        return None  # a primary key the caller sets, or a row of defaults: save() decides
    columns = ", ".join(_quote(f.column) for f in fields)
    sql = f"INSERT INTO {_quote(meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
    returns_pk = connection.features.can_return_columns_from_insert
    if returns_pk:
        returning, _ = connection.ops.returning_columns([meta.pk])
        sql = f"{sql} {returning}"
    return _Statement(sql=sql, fields=fields, returns_pk=returns_pk)


def _update_sql(model: type[Model], names: tuple[str, ...]) -> _Statement | None:
    meta = model._meta
    fields = tuple(meta.get_field(name) for name in names)
    for field in fields:
        if not field.concrete or field.primary_key or field.model is not meta.concrete_model:
            raise ValueError(f"{field.name!r} is not a column of {meta.label} that update() sets")
    assignments = ", ".join(f"{_quote(f.column)} = %s" for f in fields)
    return _Statement(
        sql=f"UPDATE {_quote(meta.db_table)} SET {assignments} WHERE {_quote(meta.pk.column)} = %s",
        fields=fields,
        returns_pk=False,
    )
