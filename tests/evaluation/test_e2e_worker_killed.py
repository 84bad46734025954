"""End to end: a worker killed (SIGKILL) in the middle of a unit loses no answered call and
repeats none. The model is the local OpenAI-compatible test server, which counts the requests
really made; the call cache is Redis (db 15), shared with the worker that takes the unit over
once its lease has lapsed.

Exactly one request may be made twice: the one the killed worker was waiting for (it never got
an answer, so there was nothing to cache).
"""

import signal
from collections import Counter

import pytest

from attune_collect.llm.testing import run_test_server
from attunebench.cache import call_key
from evaluation.models import EvaluationUnit
from evaluation.services.creation import create_run
from evaluation.services.planning import RunRequest
from tests.evaluation.conftest import make_release, wait_until_completed
from tests.factories import make_test_server_endpoint
from tests.releases.test_killed_worker import wait_for
from tests.worker_process import celery_worker

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
KEY_ENV = "E2E_TEST_API_KEY"
ANSWERED_BEFORE_STALL = 25


def demo_json(body):
    from attune_collect.llm.demo_provider import build_demo_reply

    return build_demo_reply("attune-demo/listener", body["messages"]).text


def test_killed_worker_neither_loses_nor_repeats_cached_calls(
    celery_on_redis, redis_client, redis_prefix
):
    release = make_release(conversations=4, seed=6)
    env = {**celery_on_redis, KEY_ENV: "sk-e2e", "ATTUNE_TEST_UNIT_LEASE_S": "3"}
    with run_test_server(demo_json) as server:
        endpoint = make_test_server_endpoint(server.base_url, KEY_ENV, timeout_s=300)
        # After some answers the server goes silent on one request: the worker is then surely
        # in the middle of a unit, with answered calls in the cache and one call open.
        server.behaviour.ok(ANSWERED_BEFORE_STALL).stall(600)
        with celery_worker(env, name="doomed") as doomed:
            run = create_run(RunRequest(release=release, models=(endpoint,)), actor_label="test")
            wait_for(lambda: server.request_count > ANSWERED_BEFORE_STALL, 90, "the silent request")
            wait_for(
                lambda: settled(server, redis_client, redis_prefix),
                60,
                "every other call to be answered and cached",
            )
            before = [_key(endpoint, body) for body in list(server.behaviour.requests)]
            killed = EvaluationUnit.objects.get(run=run, status="running")
            doomed.send_signal(signal.SIGKILL)
            doomed.wait(timeout=10)
        stalled = before[ANSWERED_BEFORE_STALL]

        with celery_worker(env, name="rescuer"):
            wait_until_completed(run.pk, 120, "the rescuer to finish the run")
        made = [_key(endpoint, body) for body in server.behaviour.requests]

    run.refresh_from_db()
    killed.refresh_from_db()
    assert run.units_done == run.units_total == 4 and run.units_failed == 0
    assert killed.attempts == 2 and killed.worker.startswith("rescuer@")

    # Requests really made vs the cache: one entry per distinct call, every call made once,
    # except the one the kill cut off.
    cached = {
        key.decode().removeprefix(f"{redis_prefix}calls:")
        for key in _cache_keys(redis_client, redis_prefix)
    }
    repeats = {key: n for key, n in Counter(made).items() if n > 1}
    assert repeats == {stalled: 2}
    assert cached == set(made) and len(made) == len(cached) + 1
    # Nothing answered before the kill was asked again after it: it came from the cache.
    after = made[len(before) :]
    assert set(after).isdisjoint(set(before) - {stalled})
    assert killed.calls_cached > 0  # the rescuer replayed the killed worker's answers


def settled(server, redis_client, redis_prefix) -> bool:
    """Only the silent request is open and the worker has cached the answer of every other
    one (it caches an answer as soon as it has it): a state, not a quiet second. The unit
    cannot finish without the silent answer, so the worker asks nothing more until killed."""
    made = server.request_count
    cached = len(_cache_keys(redis_client, redis_prefix))
    return server.behaviour.in_flight == 1 and cached == made - 1


def _key(endpoint, body) -> str:
    return call_key(endpoint.litellm_model, endpoint.params, body["messages"])


def _cache_keys(client, prefix):
    return list(client.scan_iter(match=f"{prefix}calls:*", count=1000))
