"""The persistent call cache: a model's answer to exactly these messages is fetched once.

The key is the sha256 of the canonical JSON of (model, parameters, messages), so a rerun, a
resumed run, another mode with the same out-of-thread call, or another process working on the
same run finds the answer instead of calling again. Only successful completions are stored (a
call that failed is tried again next time); an unparseable answer is stored like any other, so
its replay, and the re-ask that follows it, are the same as the first time.

``CallCache`` is the interface a backend implements. Contract, so that several processes (Celery
workers on several machines) can share one cache:

- ``get(key)`` returns the stored entry or None; it never blocks on another writer for long.
- ``put(key, entry)`` stores the entry unless the key is already present, and returns the entry
  that is stored under the key afterwards (first writer wins). Two workers that raced on the same
  call therefore continue with the same answer, and every later replay agrees with them.
- Entries are immutable and keys are content hashes: no invalidation, no expiry needed for
  correctness. A backend may evict, at the price of a repeated call.

``SQLiteCallCache`` (one file, WAL; safe for many processes on one machine) is the default.
A Redis backend maps ``get`` to GET and ``put`` to SET NX followed by GET on a JSON value.
Methods are async so such network backends fit; the SQLite one does its (sub-millisecond) work
without suspending, which keeps a killed run's cache exactly as up to date as its last answer.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

CACHE_KEY_VERSION = 1


@dataclass(frozen=True)
class CachedCall:
    """One stored completion, with the accounting of the call that produced it."""

    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    created: float = 0.0


class CallCache(Protocol):
    async def get(self, key: str) -> CachedCall | None: ...

    async def put(self, key: str, entry: CachedCall) -> CachedCall: ...

    def close(self) -> None: ...


def call_key(model: str, params: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> str:
    """sha256 hex of the canonical JSON of (model, params, messages)."""
    canonical = json.dumps(
        {"v": CACHE_KEY_VERSION, "model": model, "params": dict(params), "messages": messages},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class MemoryCallCache:
    """In-process cache (tests, throwaway runs)."""

    def __init__(self) -> None:
        self._entries: dict[str, CachedCall] = {}

    async def get(self, key: str) -> CachedCall | None:
        return self._entries.get(key)

    async def put(self, key: str, entry: CachedCall) -> CachedCall:
        return self._entries.setdefault(key, entry)

    def __len__(self) -> int:
        return len(self._entries)

    def close(self) -> None:
        pass


_SCHEMA = """
CREATE TABLE IF NOT EXISTS calls (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    text TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    cost_usd REAL NOT NULL,
    created REAL NOT NULL
)
"""


def _retry_while_locked(
    statement: Callable[[], object], attempts: int = 40, pause_s: float = 0.05
) -> None:
    for attempt in range(attempts):
        try:
            statement()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(pause_s * (1 + attempt % 4))


class SQLiteCallCache:
    """A cache in one SQLite file, shared safely by every process on the machine.

    WAL lets readers run beside the writer; each put commits on its own (autocommit), so a
    process killed at any moment loses at most the call it was making. ``synchronous=NORMAL``
    keeps commits cheap: in WAL mode it can lose the last commits on a power cut, never on a
    process crash, and a lost entry only costs a repeated call.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            self.path, timeout=30.0, isolation_level=None, check_same_thread=False
        )
        # Two processes opening a new cache file at once race for the lock that switching to
        # WAL needs, and SQLite reports that at once instead of waiting: retry, bounded.
        _retry_while_locked(lambda: self._db.execute("PRAGMA journal_mode=WAL"))
        self._db.execute("PRAGMA synchronous=NORMAL")
        _retry_while_locked(lambda: self._db.execute(_SCHEMA))

    async def get(self, key: str) -> CachedCall | None:
        with self._lock:
            row = self._db.execute(
                "SELECT text, model, prompt_tokens, completion_tokens, cost_usd, created"
                " FROM calls WHERE key = ?",
                (key,),
            ).fetchone()
        return None if row is None else CachedCall(*row)

    async def put(self, key: str, entry: CachedCall) -> CachedCall:
        created = entry.created or time.time()
        with self._lock:
            inserted = self._db.execute(
                "INSERT OR IGNORE INTO calls VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    entry.model,
                    entry.text,
                    entry.prompt_tokens,
                    entry.completion_tokens,
                    entry.cost_usd,
                    created,
                ),
            ).rowcount
        if inserted:
            return CachedCall(
                entry.text,
                entry.model,
                entry.prompt_tokens,
                entry.completion_tokens,
                entry.cost_usd,
                created,
            )
        stored = await self.get(key)  # another process got there first: its answer wins
        return stored if stored is not None else entry

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM calls").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
