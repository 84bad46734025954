"""Running a test's code in threads of its own, as concurrent workers or requests would."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection

JOIN_S = 20.0
# Connections to this test database waiting for a lock (pg_locks is the whole cluster's, and
# a row lock's wait is on the holder's transaction id, which names no database).
_WAITING_HERE = """
    SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()
"""


class Worker:
    """A thread running a test's code; ``join`` fails the test when the code raised or never
    finished, so a race test cannot pass without the race having run to its end."""

    def __init__(self, body: Callable[[], object]) -> None:
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(body,), daemon=True)
        self._thread.start()

    def _run(self, body: Callable[[], object]) -> None:
        try:
            body()
        except BaseException as error:  # re-raised in the test's thread by join()
            self.error = error
        finally:
            connection.close()  # the test database cannot be dropped while it is open

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def join(self, timeout: float = JOIN_S) -> None:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), f"the thread did not finish within {timeout} s"
        if self.error is not None:
            raise self.error


def in_a_thread(body: Callable[[], object]) -> Worker:
    """Start ``body`` in a daemon thread that closes its database connection when done."""
    return Worker(body)


def until_another_waits_for_a_lock(timeout_s: float = JOIN_S) -> None:
    """Wait until another connection waits for a lock this test's transaction holds: the
    moment a race test lets its held transaction go. Row locks are PostgreSQL's (SQLite takes
    the whole database for a write), so on SQLite the race is not there to test."""
    if connection.vendor != "postgresql":
        pytest.skip("a race on row locks: run on PostgreSQL (make test does)")
    deadline = time.monotonic() + timeout_s
    with connection.cursor() as cursor:
        while True:
            cursor.execute(_WAITING_HERE)
            if cursor.fetchone()[0]:
                return
            assert time.monotonic() < deadline, "no other connection came to wait for the lock"
            time.sleep(0.005)  # polled: PostgreSQL has no event for a lock wait
