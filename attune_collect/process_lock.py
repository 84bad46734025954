"""A lock every process of the deployment honours, named by a purpose and a number.

For work that two Celery workers may be asked to do at the same moment and that must not be
done twice, where no database row is the natural thing to lock: a row lock taken for it would
also stop whoever else writes that row (the chat writes the conversation and its turns) for as
long as the work takes, and the work may wait on the network (an email to a study's contacts).

On PostgreSQL, a transaction-scoped advisory lock (``pg_advisory_xact_lock``): the block runs in
a transaction of its own that holds the lock until it commits or rolls back, so the lock can
never outlive the block, even when the process dies. On SQLite (the embedded setup, one
machine) an exclusive ``flock`` on a file in the data folder, and no transaction around the
block: SQLite has one writer at a time, so a transaction held open while the block waits on the
network would stop every participant's writes. Numbers share 64 files (a block may wait for an
unrelated number that shares its file: a short wait for rare work).
"""

from __future__ import annotations

import fcntl
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction

_SQLITE_LOCK_FILES = 64


@contextmanager
def process_lock(purpose: str, number: int) -> Iterator[None]:
    """Hold the lock for ``(purpose, number)`` for the block; wait while another process or
    thread holds it."""
    if connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                # Two 32-bit keys: the purpose's checksum and the number (a signed int4 each).
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s, %s)",
                    [_int4(zlib.crc32(purpose.encode())), _int4(number & 0xFFFFFFFF)],
                )
            yield  # the transaction holds the lock, not the cursor
        return
    with _lock_file(purpose, number).open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # released when the file is closed
        yield


def _lock_file(purpose: str, number: int) -> Path:
    folder = Path(settings.DATA_DIR) / "locks"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{purpose}-{number % _SQLITE_LOCK_FILES}.lock"


def _int4(value: int) -> int:
    return value - 2**32 if value >= 2**31 else value
