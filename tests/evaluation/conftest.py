"""Fixtures for evaluation-run tests: scratch folders, a private Redis namespace, a small frozen
demo release, the demo model endpoints, and run requests/runs built from them."""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import replace
from pathlib import Path

import pytest
import redis

from annotations.demo import ensure_demo_endpoints, seed_demo
from annotations.releases.services import build_release, create_release

# The e2e tests and the Redis tests always use this Redis (db 15), with or without REDIS_URL.
TEST_REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"


@pytest.fixture(autouse=True)
def evaluation_dirs(settings, tmp_path):
    settings.ATTUNE = replace(
        settings.ATTUNE,
        evaluations_dir=tmp_path / "evaluations",
        releases_dir=tmp_path / "releases",
    )
    return settings.ATTUNE.evaluations_dir


@pytest.fixture(autouse=True)
def redis_prefix(settings):
    """A key prefix of its own for every test (call cache, rate limits), removed afterwards: the
    cache is content-addressed, so a second test run would otherwise be served from the first."""
    prefix = f"attune:test:{uuid.uuid4().hex[:12]}:"
    settings.ATTUNE = replace(settings.ATTUNE, evaluation_redis_prefix=prefix)
    yield prefix
    client = redis.Redis.from_url(TEST_REDIS_URL)
    try:
        keys = list(client.scan_iter(match=prefix + "*", count=1000))
        if keys:
            client.delete(*keys)
    except redis.ConnectionError:
        pass
    finally:
        client.close()


@pytest.fixture
def redis_client():
    client = redis.Redis.from_url(TEST_REDIS_URL)
    yield client
    client.close()


def make_release(conversations: int = 6, seed: int = 3, version: str = "1.0.0"):
    study = seed_demo(conversations, seed=seed).study
    release = create_release(
        name="attunebench",
        version=version,
        studies=[study],
        subsample_sizes=[3],
        actor_label="test",
    )
    return build_release(release.pk)


def wait_until_completed(run_id: int, timeout: float, what: str) -> None:
    from evaluation.models import EvaluationRun, RunStatus
    from tests.releases.test_killed_worker import wait_for

    completed = EvaluationRun.objects.filter(pk=run_id, status=RunStatus.COMPLETED)
    wait_for(completed.exists, timeout, what)


@pytest.fixture
def demo_release(db):
    return make_release()


@pytest.fixture
def demo_models(db):
    by_name = {endpoint.model_name: endpoint for endpoint in ensure_demo_endpoints()}
    return by_name["listener"], by_name["advisor"]


@pytest.fixture
def run_request(demo_release, demo_models):
    from evaluation.services.planning import RunRequest

    def _request(**changes):
        values = {"release": demo_release, "models": demo_models, "modes": ("default",)}
        return RunRequest(**{**values, **changes})

    return _request


def _reset_celery_connections(app) -> None:
    """The Celery app caches its pools: drop its references so a new broker URL applies (the
    pools stay open in kombu's registry, keyed by URL, for whoever uses that URL next)."""
    app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


@pytest.fixture
def celery_on_redis(settings, redis_prefix, evaluation_dirs):
    """Publish this process's tasks to Redis db 15 on a queue of this test's own, and return
    the environment for worker processes (tests/worker_process.py) that consume it."""
    from attune_collect.celery import app

    queue = f"attune-test-{uuid.uuid4().hex[:12]}"
    settings.ATTUNE = replace(settings.ATTUNE, evaluation_queue=queue)
    saved = {key: app.conf[key] for key in ("broker_url", "broker_transport_options")}
    app.conf.update(broker_url=TEST_REDIS_URL, broker_transport_options={})
    _reset_celery_connections(app)
    yield {
        "REDIS_URL": TEST_REDIS_URL,
        "CELERY_BROKER_URL": TEST_REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "tests.evaluation.worker_settings",
        "ATTUNE_TEST_QUEUE": queue,
        "ATTUNE_TEST_REDIS_PREFIX": redis_prefix,
        "ATTUNE_EVALUATIONS_DIR": str(evaluation_dirs),
    }
    app.conf.update(saved)
    _reset_celery_connections(app)
    client = redis.Redis.from_url(TEST_REDIS_URL)
    client.delete(queue)
    _forget_unacked(client, queue)
    client.close()


def _forget_unacked(client, queue: str) -> None:
    """A killed worker's unacknowledged message would be restored to our queue an hour later
    (kombu's visibility timeout): remove it with the queue, leaving db 15 as we found it."""
    for tag, raw in client.hgetall("unacked").items():
        try:
            routing_key = json.loads(raw)[2]
        except (ValueError, IndexError, TypeError):
            continue
        if routing_key == queue:
            client.hdel("unacked", tag)
            client.zrem("unacked_index", tag)


def evaluate_demo(out: str | Path, *options: str) -> str:
    """``manage.py evaluate --inline`` of the demo release's listener model into ``out``, with
    ``options`` added; returns what the command printed."""
    from io import StringIO

    from django.core.management import call_command

    printed = StringIO()
    command = ["--release", "attunebench@1.0.0", "--model", "demo-listener", "--inline"]
    call_command("evaluate", *command, "--out", str(out), *options, stdout=printed)
    return printed.getvalue()


# The admin's "start an evaluation run" page, and a valid form for it.
ADD = "admin:evaluation_evaluationrun_add"


def start_form(release, models, subsample: str) -> dict:
    """The start page's fields for one mode of ``models`` on ``release`` (``_plan``: plan it)."""
    return {
        "release": release.pk,
        "models": [m.pk for m in models],
        "modes": ["default"],
        "panas_strategy": "absolute",
        "subsample": subsample,
        "prompt_set": "v1",
        "seed": "7",
        "_plan": "1",
    }
