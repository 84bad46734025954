"""A task is sent as one whose result nobody waits for: the work's state is in the database, so
the sender subscribes to no result channel (with a Redis result backend, Celery otherwise
subscribes and unsubscribes for every task sent: two round trips on each chat reply) and the
message tells the worker to store no result. Against the real Redis the suite runs with."""

import json
import os
import uuid

import pytest
import redis
from celery import Celery
from redis.client import PubSub

from attune_collect import dispatch
from tests.conftest import REAL_SEND_TASK

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"


@pytest.fixture
def redis_app(monkeypatch):
    """A Celery app with Redis as broker and result backend, as production configures it."""
    app = Celery("attune-test", broker=REDIS_URL, backend=REDIS_URL, set_as_current=False)
    monkeypatch.setattr(dispatch, "celery_app", app)
    monkeypatch.setattr(app, "send_task", REAL_SEND_TASK.__func__.__get__(app))
    yield app
    app.close()


def test_a_sent_task_subscribes_to_no_result_and_asks_for_none(redis_app, monkeypatch):
    subscribed: list[tuple] = []
    real_subscribe = PubSub.subscribe
    monkeypatch.setattr(
        PubSub,
        "subscribe",
        lambda self, *a, **k: subscribed.append(a) or real_subscribe(self, *a, **k),
    )
    queue = f"attune-test-{uuid.uuid4().hex[:8]}"
    server = redis.Redis.from_url(REDIS_URL)
    try:
        assert dispatch.send("annotations.improve_reply", 7, queue=queue) is True
        raw = server.lpop(queue)
    finally:
        server.delete(queue)
        server.close()
    assert raw is not None, "the task did not reach the broker"
    message = json.loads(raw)
    assert message["headers"]["task"] == "annotations.improve_reply"
    assert message["headers"]["ignore_result"] is True
    assert subscribed == []
