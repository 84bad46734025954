"""A real Celery worker process consumes tasks from the configured broker.

With no configuration that is the embedded filesystem broker (no Redis); in CI with REDIS_URL
it is Redis. The task writes to the test database, which the worker reaches through the
DATABASE_URL passed to it.
"""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from annotations.models import AuditEntry
from attune_collect.tasks import heartbeat

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def database_url_for_test_database() -> str:
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    return f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"


@pytest.fixture
def worker():
    env = {**os.environ, "DATABASE_URL": database_url_for_test_database()}
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "attune_collect", "worker", "--pool=solo", "--loglevel=warning",
         "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    yield process
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def test_a_task_runs_in_the_worker_not_in_the_caller(worker):
    token = uuid.uuid4().hex
    heartbeat.delay(token)
    deadline = time.monotonic() + 30
    entry = None
    while time.monotonic() < deadline and entry is None:
        entry = AuditEntry.objects.filter(action="system.worker.heartbeat", target_id=token).first()
        time.sleep(0.2)
    assert entry is not None, "the worker did not run the task within 30 s"
    assert entry.actor_label.startswith("worker:")
    assert worker.poll() is None  # still running: it is a real, separate process
