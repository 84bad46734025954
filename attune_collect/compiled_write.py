"""INSERTs and UPDATEs of model rows with their SQL written once per model and field list.

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
    insert_many(judgements)  # BehaviourJudgement.objects.bulk_create(judgements)

What they keep of ``save()`` (and ``insert_many`` of ``bulk_create()``, which sends no
signal): each field's ``pre_save`` (``auto_now``, ``auto_now_add``) and ``get_db_prep_save``
(the database's form of the value), the check that no related object is unsaved, a database
error marking the enclosing ``atomic`` block for rollback, the instance's ``_state``
afterwards, the primary key set from ``RETURNING`` (or, for one row, the database's last insert
id), and ``NotUpdated`` when an UPDATE finds no row. The statement runs on a cursor Django
makes for it (``connection.cursor()``), with Django's checks, error classes and query log.

Where ``save()`` could do more, they call it instead, so the result is always the ORM's: a model
that overrides ``save()``, has parent models, ``order_with_respect_to``, generated fields or
fields the database returns other than those with a database default (whose value the instance
holds: a rolling deploy's defaults), or a field whose placeholder is its own (``get_placeholder``); a
``pre_save``/``post_save`` receiver for the model; an insert whose primary key is already set;
a value that is an expression (``F()``, ``Now()``); for ``insert_many``, more parameters than
the database takes in one statement, or a database that cannot return the new rows' keys.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Model
from django.db.models.signals import post_save, pre_save


@dataclass(frozen=True)
class _Statement:
    sql: str  # for one row
    fields: tuple[Any, ...]  # the columns' fields (Django's Field), in the SQL's order
    relations: tuple[Any, ...]  # the model's fields that hold a related object (save() checks
    # them all, whichever fields it writes)
    checks_private: bool  # the model has private fields (GenericForeignKey): Django checks them
    returns_pk: bool = False  # INSERT ... RETURNING the primary key
    head: str = ""  # INSERT: what comes before the rows,
    row: str = ""  # one row's placeholders,
    returning: str = ""  # and what comes after them


_statements: dict[tuple[Any, ...], _Statement | None] = {}  # None: the model takes save()
_lock = threading.Lock()


def insert[M: Model](obj: M) -> M:
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
    _check_related(obj, statement, "save")
    connection = connections[DEFAULT_DB_ALIAS]
    params = _params(obj, statement.fields, connection, add=True)
    if params is None:  # an expression among the values: Django compiles it
        obj.save(force_insert=True)
        return obj
    with _rollback_on_error(), connection.cursor() as cursor:
        cursor.execute(statement.sql, params)
        if statement.returns_pk:
            pk = cursor.fetchone()[0]
        else:
            pk = connection.ops.last_insert_id(cursor, meta.db_table, str(meta.pk.column))
    _stored(obj, pk, connection)
    return obj


def insert_many[M: Model](objs: Sequence[M]) -> list[M]:
    """INSERT new instances of one model in one statement, as ``bulk_create(objs)`` would;
    returns them, their primary keys set."""
    if not objs:
        return []
    model = type(objs[0])
    meta = model._meta
    connection = connections[DEFAULT_DB_ALIAS]
    statement = _statement(("insert", model), _insert_sql, model)
    limit = connection.features.max_query_params
    if (
        statement is None
        or not statement.returns_pk
        or not connection.features.can_return_rows_from_bulk_insert
        or (limit is not None and len(objs) * len(statement.fields) > limit)
        or any(type(obj) is not model or getattr(obj, meta.pk.attname) is not None for obj in objs)
    ):
        return model._default_manager.bulk_create(objs)
    params: list[Any] = []
    for obj in objs:
        _check_related(obj, statement, "bulk_create")
        values = _params(obj, statement.fields, connection, add=True)
        if values is None:
            return model._default_manager.bulk_create(objs)
        params += values
    rows = ", ".join([statement.row] * len(objs))
    with _rollback_on_error(), connection.cursor() as cursor:
        cursor.execute(f"{statement.head} VALUES {rows} {statement.returning}", params)
        keys = cursor.fetchall()
    for obj, (pk,) in zip(objs, keys, strict=True):
        _stored(obj, pk, connection)
    return list(objs)


def update(obj: Model, field_names: Iterable[str]) -> None:
    """UPDATE these fields of a stored instance as ``obj.save(update_fields=...)`` would."""
    model: Any = type(obj)  # NotUpdated: Django 6's, not in django-stubs yet
    names = tuple(sorted(set(field_names)))
    if not names:
        raise ValueError("update() needs at least one field")
    statement = _statement(("update", model, names), _update_sql, model, names)
    if statement is None or _has_receivers(model):
        obj.save(update_fields=names)
        return
    _check_related(obj, statement, "save")
    connection = connections[DEFAULT_DB_ALIAS]
    params = _params(obj, statement.fields, connection, add=False)
    if params is None:
        obj.save(update_fields=names)
        return
    params.append(model._meta.pk.get_db_prep_value(obj.pk, connection))
    with _rollback_on_error(), connection.cursor() as cursor:
        cursor.execute(statement.sql, params)
        if not cursor.rowcount:  # NotUpdated marks the block for rollback too, as in save()
            raise model.NotUpdated("Save with update_fields did not affect any rows.")
    obj._state.adding = False
    obj._state.db = DEFAULT_DB_ALIAS


def _rollback_on_error() -> Any:
    """As in ``save()``: an error of the statement marks the enclosing atomic block for rollback."""
    return transaction.mark_for_rollback_on_error(DEFAULT_DB_ALIAS)


def _check_related(obj: Any, statement: _Statement, operation: str) -> None:
    """Django's check that no related object is unsaved (it raises ``ValueError``), run where it
    can find something: it compares every field of the model with the saved ones, and most
    writes here hold no related object (an audit entry's actor is None)."""
    if statement.checks_private:  # GenericForeignKeys: Django's whole check, as save() runs it
        obj._prepare_related_fields_for_save(operation_name=operation)
        return
    held = tuple(f for f in statement.relations if f.get_cached_value(obj, None) is not None)
    if held:
        obj._prepare_related_fields_for_save(operation_name=operation, fields=held)


def _stored(obj: Model, pk: Any, connection: Any) -> None:
    pk_field = obj._meta.pk
    for converter in pk_field.get_db_converters(connection):
        pk = converter(pk, pk_field, connection)
    setattr(obj, pk_field.attname, pk)
    obj._state.adding = False
    obj._state.db = DEFAULT_DB_ALIAS


def _params(obj: Model, fields: tuple[Any, ...], connection: Any, *, add: bool) -> list | None:
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
        and all(_sent_by_us(field, meta) for field in meta.db_returning_fields)
        and not any(
            field.generated or hasattr(field, "get_placeholder")
            for field in meta.local_concrete_fields
        )
    )


def _sent_by_us(field: Any, meta: Any) -> bool:
    """Whether ``save()`` would read nothing back for this RETURNING field that ``insert`` does
    not already know: the primary key (read back by ``insert``), or a field with a database
    default whose value the instance holds (Django returns what was sent; an unset one is an
    expression, and ``_params`` then hands the write to ``save()``)."""
    return field is meta.pk or (field.has_db_default() and not field.generated)


def _quote(name: str | None) -> str:
    assert name is not None  # a concrete field's column, a model's table
    return connections[DEFAULT_DB_ALIAS].ops.quote_name(name)


def _written(model: type[Model], fields: tuple[Any, ...]) -> dict[str, Any]:
    return {
        "fields": fields,
        "relations": tuple(f for f in model._meta.concrete_fields if f.is_relation),
        "checks_private": bool(model._meta.private_fields),
    }


def _insert_sql(model: type[Model]) -> _Statement | None:
    meta = model._meta
    connection = connections[DEFAULT_DB_ALIAS]
    fields = tuple(f for f in meta.local_concrete_fields if f is not meta.auto_field)
    if meta.auto_field is None or not fields:
        return None  # a primary key the caller sets, or a row of defaults: save() decides
    columns = ", ".join(_quote(f.column) for f in fields)
    head = f"INSERT INTO {_quote(meta.db_table)} ({columns})"
    row = f"({', '.join(['%s'] * len(fields))})"
    returns_pk = connection.features.can_return_columns_from_insert
    returning = connection.ops.returning_columns([meta.pk])[0] if returns_pk else ""
    return _Statement(
        sql=f"{head} VALUES {row} {returning}".rstrip(),
        returns_pk=returns_pk,
        head=head,
        row=row,
        returning=returning,
        **_written(model, fields),
    )


def _update_sql(model: type[Model], names: tuple[str, ...]) -> _Statement | None:
    meta = model._meta
    fields: tuple[Any, ...] = tuple(meta.get_field(name) for name in names)
    for field in fields:
        if not field.concrete or field.primary_key or field.model is not meta.concrete_model:
            raise ValueError(f"{field.name!r} is not a column of {meta.label} that update() sets")
    assignments = ", ".join(f"{_quote(f.column)} = %s" for f in fields)
    return _Statement(
        sql=f"UPDATE {_quote(meta.db_table)} SET {assignments} WHERE {_quote(meta.pk.column)} = %s",
        **_written(model, fields),
    )
