"""Writes that ride the transaction's COMMIT: one round trip for them and the COMMIT together.

A chat message's three database steps each end with writes whose results nothing in the step
reads: an audit entry, the deletion of a draft, the reply's UPDATE of its locked turn, the
submit's answers and step. Each was a round trip of its own before the COMMIT's (25 round trips
per message, 16 with them kept; ``benchmarks/commit_tail.py`` measures both ways), and
on PostgreSQL a round trip is most of what such a write costs the web process (about 80 us of
CPU on this machine, where the statement itself is a few; with 200 streams open, each one also
hands the interpreter lock back and forth between a pool thread and the event loop).
``write_at_commit`` keeps such a write on the connection until the outermost ``atomic`` block
commits; the backend (``attune_collect/postgresql``) then sends the kept writes and the COMMIT
as one query, their parameters rendered as literals by psycopg, and the COMMIT's round trip is
the only one. They commit or roll back with the transaction, in the order they were made; an
error in one of them is raised by the COMMIT, as Django raises a failed COMMIT (the ``atomic``
block rolls back and re-raises).

A write is kept only where that changes nothing a caller can see: inside the outermost
``atomic`` block that will commit (not inside a nested block, whose savepoint could roll back
alone, and so never inside a test's transaction), on the project's PostgreSQL backend, and
while no query log or execute wrapper watches the connection (``DEBUG``,
``django_assert_num_queries``). Anywhere else it runs at once. The caller promises that nothing
in the same transaction reads the written rows back (a kept write is not visible before the
COMMIT, even to its own transaction) and, for an UPDATE, that its row is there (locked by the
transaction): nothing answers how many rows it changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.asyncio import async_unsafe

Write = tuple[str, Sequence[Any]]


class CommitTail:
    """The writes kept on one connection until its transaction ends."""

    def __init__(self) -> None:
        self._writes: list[Write] = []

    def add(self, sql: str, params: Sequence[Any]) -> None:
        self._writes.append((sql, params))

    def take(self) -> list[Write]:
        writes, self._writes = self._writes, []
        return writes


def rides_the_commit(connection: BaseDatabaseWrapper) -> bool:
    """Whether a write on ``connection`` now can wait for its COMMIT (see the module)."""
    return (
        isinstance(getattr(connection, "commit_tail", None), CommitTail)
        and connection.in_atomic_block
        and connection.commit_on_exit
        and not connection.savepoint_ids
        and not connection.needs_rollback
        and not connection.queries_logged
        and not connection.execute_wrappers
    )


def kept_for_commit(connection: BaseDatabaseWrapper, sql: str, params: Sequence[Any]) -> bool:
    """Keep ``sql`` for the COMMIT if it can wait for it; False: the caller runs it now (as it
    would have, e.g. with ``RETURNING`` or a row count to check)."""
    if not rides_the_commit(connection):
        return False
    connection.commit_tail.add(sql, params)  # type: ignore[attr-defined]  # our backend's attribute (postgresql/base.py), not Django's
    return True


@async_unsafe
def write_at_commit(sql: str, params: Sequence[Any], using: str = DEFAULT_DB_ALIAS) -> None:
    """Run ``sql`` with ``params`` in the COMMIT's round trip where it can wait, else now."""
    connection = connections[using]
    if kept_for_commit(connection, sql, params):
        return
    with transaction.mark_for_rollback_on_error(using), connection.cursor() as cursor:
        cursor.execute(sql, params)


def send_with_commit(driver_connection: psycopg.Connection, writes: list[Write]) -> None:
    """The kept writes and the COMMIT, as one query (psycopg renders the parameters)."""
    cursor = psycopg.ClientCursor(driver_connection)
    try:
        statements = [cursor.mogrify(sql, params) for sql, params in writes]
        cursor.execute(";\n".join([*statements, "COMMIT"]), prepare=False)
    finally:
        cursor.close()
    driver_connection.commit()  # the server has committed: psycopg sees it idle, sends nothing
