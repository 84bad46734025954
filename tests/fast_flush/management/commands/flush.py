"""``flush`` as a transactional test's teardown calls it, made cheap on PostgreSQL.

Django's flush empties every table with one ``TRUNCATE``: PostgreSQL gives each of the hundreds
of tables, indexes and sequences a new file and syncs them at the commit, about 1 s a test here
with a handful of rows to remove. This command removes the rows of the tables that have any,
with ``DELETE``, in one transaction whose foreign-key checks wait for its end (Django creates
them deferrable), then emits ``post_migrate`` as Django's does. The database ends the same:
every table empty, the sequences where they were (Django's teardown does not reset them either).

Anything else Django's command is asked (another database, sequences reset, a cascade, a
prompt), or a constraint that cannot wait, goes to Django's own command unchanged. Figures:
docs/benchmarks.md, "Test suite time"."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError
from django.core.management.commands import flush
from django.core.management.sql import emit_post_migrate_signal
from django.db import DatabaseError, connections, transaction


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        connection = connections[options["database"]]
        if (
            connection.vendor != "postgresql"
            or options["interactive"]
            or options.get("reset_sequences", True)
            or options.get("allow_cascade", False)
        ):
            return super().handle(**options)
        try:
            with transaction.atomic(using=options["database"]):
                tables = _tables_with_rows(connection)
                with connection.cursor() as cursor:
                    cursor.execute("SET CONSTRAINTS ALL DEFERRED")
                    for table in tables:
                        cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")
        except DatabaseError as error:
            if "deadlock detected" in str(error):
                # The teardown's retry (tests/conftest.py) knows this one by its cause.
                raise CommandError("the tables could not be emptied") from error
            return super().handle(**options)  # a constraint that cannot wait: TRUNCATE
        if not options.get("inhibit_post_migrate", False):
            emit_post_migrate_signal(options["verbosity"], False, options["database"])


def _tables_with_rows(connection: Any) -> list[str]:
    """Django's tables that hold a row, in one query."""
    names = connection.introspection.django_table_names(only_existing=True, include_views=False)
    if not names:
        return []
    quote = connection.ops.quote_name
    probes = " UNION ALL ".join(
        f"SELECT %s WHERE EXISTS (SELECT 1 FROM {quote(name)})" for name in names
    )
    with connection.cursor() as cursor:
        cursor.execute(probes, names)
        return [row[0] for row in cursor.fetchall()]
