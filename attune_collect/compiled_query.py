"""ORM reads compiled to SQL once per database connection, then run with new values.

Django builds a query's SQL again on every call: the QuerySet's filters, the compiler's column
list, joins and converters. For the participant API's hot reads that is most of the read's CPU:
the session token's lookup (three models joined, 55 columns) costs about 0.9 ms of CPU per call
through the ORM and 0.25 ms with its SQL built once (``benchmarks/compiled_queries.py``), and a
chat message makes several such reads on each of its requests (issue 16).

A ``CompiledQuery`` is written as an ordinary QuerySet, built from the values of one call::

    SESSION = CompiledQuery(
        lambda token_hash: ParticipantSession.objects.select_related("participant__study")
        .filter(token_hash=token_hash, revoked_at__isnull=True)
    )
    session = SESSION.first(hash_token(token))

The first call on a connection builds that QuerySet with a stand-in for each value, keeps the
SQL Django compiles for it, and where each stand-in landed among the SQL's parameters; every
call then runs that SQL with its own values and builds the model instances as Django's
``ModelIterable`` does (``select_related`` objects and annotations included). Each thread keeps
its own compiled copy: Django's connections are per thread, and so are the compilers'.

Values are ints (ids, numbers) and strs, passed to the SQL as they are: what a lookup would do
to them on the way (``__iexact``, ``__contains``, a date) is refused when the query is compiled,
since the stand-in would not be found unchanged among the parameters. An int outside its
column's range (a turn number of 99999 in a URL, for a small-integer column) changes what
Django builds (an empty result, no SQL at all): whether the SQL still holds for ints of that
size is found once (one more compile with the largest of their range), and where it does not,
the call goes through the ORM as written.

The QuerySet must be a plain ``Model.objects`` one yielding model instances (no ``values()``,
no prefetch, not from a related manager) with its own ordering and slicing: ``first()`` does
not add any.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models import query as django_query
from django.db.transaction import TransactionManagementError

Value = int | str


def _stand_ins(values: Sequence[Value], round_: int) -> list[Value]:
    """Values to compile the query with, in place of the call's: two rounds, each value's two
    stand-ins different, so a constant of the query itself can match at most one of them. Ints
    stay small and positive, within every integer field's range (Django turns an out-of-range
    lookup into an empty result, with no parameter at all)."""
    stand_ins: list[Value] = []
    for index, value in enumerate(values):
        if type(value) is int:
            stand_ins.append(1000 + 2 * index + round_)
        elif type(value) is str:
            stand_ins.append(f"\ue000compiled-query-value-{index}-{round_}\ue000")
        else:
            raise TypeError(
                f"a compiled query takes int and str values, not {type(value).__name__} ({value!r})"
            )
    return stand_ins


@dataclass(frozen=True)
class _Compiled:
    """One query's SQL and what turns its rows into model instances, for one connection."""

    arity: int  # how many values a call gives
    int_values: tuple[int, ...]  # which of them are ints
    sql: str
    params: tuple[Any, ...]
    # (parameter position, index of the call's value, the parameter's type): Django gives some
    # values to the driver wrapped (psycopg's Int2 and Int4, for small integer columns).
    slots: tuple[tuple[int, int, type], ...]
    locks: bool  # SELECT ... FOR UPDATE: only inside a transaction (Django's own check)
    col_count: int
    converters: tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]
    from_db: Callable[..., Model]
    init_list: tuple[str, ...]
    model_slice: slice
    related: tuple[Any, ...]  # Django's RelatedPopulator for each select_related model
    annotations: tuple[tuple[str, int], ...]
    # (value index, int range) -> whether this SQL holds for such ints (found when first met)
    holds_for: dict[tuple[int, tuple[bool, int | None]], bool]


class CompiledQuery[M: Model]:
    """A read whose SQL Django builds once per connection (see the module's docstring)."""

    def __init__(self, build: Callable[..., QuerySet[M]]) -> None:
        self._build = build
        self._local = threading.local()

    def all(self, *values: Value) -> list[M]:
        compiled = self._compiled(values)
        if not all(self._holds(compiled, values, i) for i in compiled.int_values):
            return list(self._build(*values))  # an int out of its column's range: the ORM's way
        params = list(compiled.params)
        for position, index, kind in compiled.slots:
            value = values[index]
            params[position] = value if type(value) is kind else kind(value)
        connection = connections[DEFAULT_DB_ALIAS]
        if compiled.locks and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        return [self._instance(compiled, row, connection) for row in rows]

    def first(self, *values: Value) -> M | None:
        """The first row's instance, or None. The QuerySet should be sliced (``[:1]``)."""
        found = self.all(*values)
        return found[0] if found else None

    def _holds(self, compiled: _Compiled, values: Sequence[Value], index: int) -> bool:
        """Whether the compiled SQL holds for the int ``values[index]``: Django's integer
        lookups build no SQL for a value outside the column's range. The ranges of Django's
        integer fields are those of 16, 32 and 64 bit ints (the positive ones from 0), so one
        compile with the widest value of the same size and sign answers for all of them."""
        size = _int_size(int(values[index]))
        if size == (False, 16):  # the stand-ins' own size: the SQL was compiled for it
            return True
        key = (index, size)
        known = compiled.holds_for.get(key)
        if known is None:
            negative, bits = size
            if bits is None:
                known = False
            else:
                widest = -(2 ** (bits - 1)) if negative else 2 ** (bits - 1) - 1
                stand_ins = _stand_ins(values, 0)
                stand_ins[index] = widest
                try:
                    sql, params = (
                        self._build(*stand_ins).query.get_compiler(using=DEFAULT_DB_ALIAS).as_sql()
                    )
                except (EmptyResultSet, FullResultSet):
                    sql, params = "", ()
                known = sql == compiled.sql and all(
                    params[position] == widest
                    for position, slot, _ in compiled.slots
                    if slot == index
                )
            compiled.holds_for[key] = known
        return known

    @staticmethod
    def _instance(compiled: _Compiled, row: Sequence[Any], connection: Any) -> M:
        values = list(row[: compiled.col_count])
        for position, converters, expression in compiled.converters:
            value = values[position]
            for converter in converters:
                value = converter(value, expression, connection)
            values[position] = value
        obj = compiled.from_db(DEFAULT_DB_ALIAS, compiled.init_list, values[compiled.model_slice])
        for populator in compiled.related:
            populator.populate(values, obj)
        for name, position in compiled.annotations:
            setattr(obj, name, values[position])
        return obj  # type: ignore[return-value]  # from_db makes an instance of the query's model, typed Model

    def _compiled(self, values: Sequence[Value]) -> _Compiled:
        compiled: _Compiled | None = getattr(self._local, "compiled", None)
        if compiled is None:
            compiled = self._local.compiled = self._compile(values)
        if len(values) != compiled.arity:
            raise TypeError(f"this query takes {compiled.arity} values ({len(values)} given)")
        return compiled

    def _compile(self, values: Sequence[Value]) -> _Compiled:
        # Compiled twice: a parameter is the call's value i where the two rounds put its two
        # stand-ins, and a constant of the query (the same in both) is left as it is.
        first, second = _stand_ins(values, 0), _stand_ins(values, 1)
        queryset = self._build(*first)
        _check_plain(queryset)
        if queryset.db != DEFAULT_DB_ALIAS:
            raise ValueError(f"a compiled query reads the default database, not {queryset.db!r}")
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        again_sql, again = self._build(*second).query.get_compiler(using=queryset.db).as_sql()
        if again_sql != sql or len(again) != len(params):
            raise ValueError("a compiled query's SQL must not depend on its values")
        slots = tuple(
            (position, index, type(one))
            for position, (one, other) in enumerate(zip(params, again, strict=True))
            for index in range(len(values))
            if _same(one, first[index]) and _same(other, second[index])
        )
        missing = set(range(len(values))) - {index for _, index, _ in slots}
        if missing:
            raise ValueError(
                "a compiled query's values must reach the SQL unchanged; these did not: "
                + ", ".join(repr(values[i]) for i in sorted(missing))
            )
        select, klass_info = compiler.select, compiler.klass_info
        fields = [column[0] for column in select[: compiler.col_count]]
        converters = compiler.get_converters(fields)
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        fetch_mode = _private(queryset)._fetch_mode
        features = compiler.connection.features
        return _Compiled(
            arity=len(values),
            int_values=tuple(i for i, value in enumerate(values) if type(value) is int),
            sql=sql,
            params=tuple(params),
            slots=slots,
            locks=bool(queryset.query.select_for_update)
            and features.has_select_for_update
            and features.supports_transactions,
            col_count=compiler.col_count,
            converters=tuple(
                (position, tuple(functions), expression)
                for position, (functions, expression) in converters.items()
            ),
            # Django's own row-to-instance steps, as its ModelIterable takes them.
            from_db=django_query._get_from_db(klass_info["model"], fetch_mode),  # type: ignore[attr-defined]  # not in django-stubs
            init_list=tuple(column[0].target.attname for column in select[start:end]),
            model_slice=slice(start, end),
            related=tuple(
                django_query.get_related_populators(klass_info, select, queryset.db, fetch_mode)
            ),
            annotations=tuple((compiler.annotation_col_map or {}).items()),
            holds_for={},
        )


def _int_size(value: int) -> tuple[bool, int | None]:
    """(negative, the fewest bits of 16, 32 and 64 that hold it; None: none does)."""
    for bits in (16, 32, 64):
        if -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
            return value < 0, bits
    return value < 0, None


def _same(parameter: Any, stand_in: Value) -> bool:
    # isinstance: a small int comes back wrapped (psycopg's Int2, Int4), a bool is no int here.
    return (
        isinstance(parameter, type(stand_in))
        and type(parameter) is not bool
        and parameter == stand_in
    )


def _private(queryset: QuerySet[Any]) -> Any:
    """The QuerySet, for its private attributes (django-stubs leaves them out)."""
    return queryset


def _check_plain(plain: QuerySet[Any]) -> None:
    """Refuse what the instance builder does not reproduce (it would differ from the ORM)."""
    queryset = _private(plain)
    if queryset._iterable_class is not django_query.ModelIterable:
        raise ValueError("a compiled query yields model instances (no values(), no flat lists)")
    if queryset._prefetch_related_lookups:
        raise ValueError("a compiled query cannot prefetch")
    if queryset._known_related_objects:
        raise ValueError("build a compiled query from Model.objects, not a related manager")
    if queryset._fetch_mode.track_peers:
        raise ValueError("a compiled query does not track peers (fetch mode)")
