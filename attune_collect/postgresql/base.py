"""The project's PostgreSQL backend: Django's, plus the writes kept for the COMMIT."""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base
from django.db.backends.utils import debug_transaction

from attune_collect.commit_tail import CommitTail, send_with_commit


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commit_tail = CommitTail()

    def _commit(self) -> None:
        writes = self.commit_tail.take()
        if not writes or self.connection is None:
            return super()._commit()  # type: ignore[misc]  # not in django-stubs
        if self.queries_logged or self.execute_wrappers:
            # Something started watching after the writes were kept: let it see them.
            with self.cursor() as cursor:
                for sql, params in writes:
                    cursor.execute(sql, params)
            return super()._commit()  # type: ignore[misc]  # not in django-stubs
        with debug_transaction(self, "COMMIT"), self.wrap_database_errors:
            send_with_commit(self.connection, writes)
        return None

    def _rollback(self) -> None:
        self.commit_tail.take()  # they roll back with the rest
        return super()._rollback()  # type: ignore[misc]  # not in django-stubs

    def _close(self) -> None:
        self.commit_tail.take()
        return super()._close()  # type: ignore[misc]  # not in django-stubs
