"""``statement_cursor`` (attune_collect/kept_cursor.py) keeps one driver cursor per connection
for the compiled statements, and keeps every check and view of Django's own ``cursor()``."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.core.exceptions import SynchronousOnlyOperation
from django.db import DEFAULT_DB_ALIAS, DatabaseError, IntegrityError, connections, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from annotations.models import AuditEntry
from attune_collect.kept_cursor import statement_cursor

pytestmark = pytest.mark.django_db

ANSWER = "SELECT %s + 1"


def _answer(value: int) -> tuple[int, object]:
    """The statement's answer and the driver cursor that ran it."""
    with statement_cursor(connections[DEFAULT_DB_ALIAS]) as cursor:
        cursor.execute(ANSWER, [value])
        return cursor.fetchone()[0], cursor


def test_statements_on_one_connection_share_one_driver_cursor():
    first, cursor = _answer(1)
    second, again = _answer(41)
    assert (first, second) == (2, 42)
    assert again is cursor


@pytest.mark.django_db(transaction=True)  # closes the connection
def test_after_a_reconnect_the_cursor_is_the_new_connections():
    connection = connections[DEFAULT_DB_ALIAS]
    _answer(1)
    connection.close()
    value, cursor = _answer(2)
    assert value == 3
    # With Django's PostgreSQL pool the driver connection may be the same one, back from the
    # pool: what matters is that the cursor is on the one Django now holds.
    assert cursor.connection is connection.connection


def test_the_query_log_sees_the_statement():
    connection = connections[DEFAULT_DB_ALIAS]
    with CaptureQueriesContext(connection) as log:
        assert _answer(5)[0] == 6
    assert [query["sql"] for query in log.captured_queries] == [ANSWER.replace("%s", "5")]


def test_an_execute_wrapper_sees_the_statement():
    seen = []

    def wrapper(execute, sql, params, many, context):
        seen.append((sql, list(params)))
        return execute(sql, params, many, context)

    with connections[DEFAULT_DB_ALIAS].execute_wrapper(wrapper):
        assert _answer(7)[0] == 8
    assert seen == [(ANSWER, [7])]


def test_a_driver_error_is_raised_as_djangos():
    entry = AuditEntry.objects.create(action="tests.kept", actor_label="system")
    table = AuditEntry._meta.db_table
    with (
        pytest.raises(IntegrityError),
        transaction.atomic(),
        statement_cursor(connections[DEFAULT_DB_ALIAS]) as cursor,
    ):
        cursor.execute(
            f'INSERT INTO "{table}" ("id", "actor_label", "action", "target_type", '
            '"target_id", "data", "created_at") VALUES (%s, %s, %s, %s, %s, %s, %s)',
            [entry.pk, "system", "tests.kept", "", "", "{}", entry.created_at],
        )
    assert _answer(1)[0] == 2  # the cursor still serves the next statement


def test_a_transaction_that_must_roll_back_runs_nothing_more():
    with transaction.atomic():
        transaction.set_rollback(True)
        with pytest.raises(TransactionManagementError):
            _answer(1)


def test_async_code_is_refused():
    async def from_the_loop() -> None:
        _answer(1)

    with pytest.raises(SynchronousOnlyOperation):
        asyncio.run(from_the_loop())


def test_another_threads_connection_is_refused():
    connection = connections[DEFAULT_DB_ALIAS]
    connection.ensure_connection()
    raised: list[BaseException] = []

    def borrow() -> None:
        try:
            statement_cursor(connection)
        except DatabaseError as exc:
            raised.append(exc)

    thread = threading.Thread(target=borrow)
    thread.start()
    thread.join(timeout=30)
    assert len(raised) == 1 and "same thread" in str(raised[0])
