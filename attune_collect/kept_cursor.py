"""One database cursor per connection for the compiled statements, kept from one to the next.

``connection.cursor()`` builds a cursor for every statement: it checks the connection, makes a
new driver cursor (psycopg's copies the connection's adapters) and wraps it in Django's
``CursorWrapper``, whose ``execute`` passes through its wrapper layers before the driver's. The
participant API runs about twenty compiled statements per chat message (``compiled_query.py``,
``compiled_write.py``; issue 16). On PostgreSQL the making of a cursor measured 10 to 65 us of
CPU per statement, against 130 to 450 us for a compiled statement as a whole
(``benchmarks/compiled_queries.py``, the "new cursor / kept cursor" rows; ``docs/benchmarks.md``,
"Stop 28"): a small share, but paid about twenty times per message.

``statement_cursor()`` gives those statements the driver cursor of the connection's previous
one (the same class Django makes, from the backend's ``create_cursor``) and keeps what
``cursor()`` and ``execute()`` check: not from async code, the health check, a connection opened
if closed, the thread that owns it, no statement in a transaction that must roll back, and the
driver's errors raised as Django's (``IntegrityError``, ``OperationalError``...). Wherever Django
would see the statement, it takes Django's own cursor instead, so that nothing watching misses
it: the query log (``DEBUG``, ``CaptureQueriesContext``, ``django_assert_num_queries``) and
execute wrappers (``connection.execute_wrapper``).

Use it as ``connection.cursor()`` is used, one statement and its fetch per block::

    with statement_cursor(connection) as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.asyncio import async_unsafe


@async_unsafe
def statement_cursor(connection: BaseDatabaseWrapper) -> AbstractContextManager[Any]:
    """A cursor for one statement on ``connection`` (see the module's docstring)."""
    if connection.queries_logged or connection.execute_wrappers:
        return connection.cursor()  # what watches statements sees this one
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    connection.validate_no_broken_transaction()
    kept: _Kept | None = getattr(connection, _ATTRIBUTE, None)
    if kept is None or kept.driver_connection is not connection.connection:
        # The first statement on this driver connection (Django reconnected, or never
        # connected before): a cursor of its own, made as Django makes every cursor.
        with connection.wrap_database_errors:
            kept = _Kept(connection, connection.connection, connection.create_cursor())
        setattr(connection, _ATTRIBUTE, kept)
    return kept


_ATTRIBUTE = "_attune_kept_cursor"


class _Kept:
    """The kept cursor, and the block that raises the driver's errors as Django's."""

    def __init__(self, connection: BaseDatabaseWrapper, driver_connection: Any, cursor: Any):
        self.driver_connection = driver_connection
        self.cursor = cursor
        self._errors = connection.wrap_database_errors

    def __enter__(self) -> Any:
        return self.cursor

    def __exit__(self, *exc_info: Any) -> None:
        # Not closed: the next statement on this connection uses it. Django's error wrapper
        # turns a driver error into Django's and marks the connection unusable where it is.
        self._errors.__exit__(*exc_info)
