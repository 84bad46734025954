"""Start a real Celery worker process on the test database (shared by end-to-end tests)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

from attune_collect.worker_process import worker_command
from tests.processes import stop_process

ROOT = Path(__file__).resolve().parents[1]


def test_database_url() -> str:
    """A DATABASE_URL for the database the tests use, so the worker writes where they read."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    password = f":{settings['PASSWORD']}" if settings.get("PASSWORD") else ""
    return f"postgres://{settings['USER']}{password}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"


@contextmanager
def celery_worker(
    extra_env: dict[str, str] | None = None, name: str = "w1"
) -> Iterator[subprocess.Popen]:
    env = {**os.environ, "DATABASE_URL": test_database_url(), **(extra_env or {})}
    process = subprocess.Popen(
        worker_command(name),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield process
    finally:
        stop_process(process, grace_s=20)
