"""A real Celery worker process consumes tasks from the configured broker.

With no configuration that is the embedded filesystem broker (no Redis); in CI with REDIS_URL
it is Redis. The task writes to the test database, which the worker reaches through the
DATABASE_URL passed to it.
"""

import time
import uuid

import pytest

from annotations.models import AuditEntry
from attune_collect.dispatch import HEARTBEAT, send
from tests.worker_process import celery_worker

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker():
    with celery_worker() as process:
        yield process


def test_a_task_runs_in_the_worker_not_in_the_caller(worker):
    token = uuid.uuid4().hex
    assert send(HEARTBEAT, token)
    deadline = time.monotonic() + 30
    entry = None
    while time.monotonic() < deadline and entry is None:
        entry = AuditEntry.objects.filter(action="system.worker.heartbeat", target_id=token).first()
        time.sleep(0.2)
    assert entry is not None, "the worker did not run the task within 30 s"
    assert entry.actor_label.startswith("worker:")
    assert worker.poll() is None  # still running: it is a real, separate process
