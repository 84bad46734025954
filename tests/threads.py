"""Running a test's code in threads of its own, as concurrent workers or requests would."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def in_a_thread(body: Callable[[], object]) -> threading.Thread:
    """Start ``body`` in a daemon thread that closes its database connection when done (the
    test database cannot be dropped while a thread's connection is open)."""

    def run() -> None:
        try:
            body()
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread
