"""How a unit fails, against the local OpenAI-compatible test server: failed calls make the unit
run again (answered calls replay from the cache, only the failed ones reach the model); a model
that cannot be called at all (bad key) fails its unit at once, without retries."""

import pytest

from attune_collect.llm.testing import run_test_server
from evaluation.models import RunStatus, UnitStatus
from evaluation.services.creation import create_run, start_run
from evaluation.services.finalize import finalize_run
from evaluation.services.units import execute_unit
from tests.factories import make_test_server_endpoint

pytestmark = pytest.mark.django_db
KEY_ENV = "UNIT_TEST_API_KEY"


def demo_json(body):
    from attune_collect.llm.demo_provider import build_demo_reply

    return build_demo_reply("attune-demo/advisor", body["messages"]).text


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    with run_test_server(demo_json) as running:
        yield running


def one_unit_run(run_request, server):
    endpoint = make_test_server_endpoint(server.base_url, KEY_ENV, max_concurrency=4)
    run = create_run(
        run_request(models=(endpoint,), subsample="sample3"), actor_label="test", inline=True
    )
    start_run(run.pk)
    return run, run.units.order_by("pk").first()


def test_failed_calls_run_the_unit_again_from_the_cache(run_request, server):
    run, unit = one_unit_run(run_request, server)
    server.behaviour.ok(5).server_error(times=2)
    assert execute_unit(unit.pk, worker="w").outcome == "retry"
    unit.refresh_from_db()
    assert unit.status == UnitStatus.QUEUED and unit.failures == 1 and unit.call_errors == 2
    assert "2 call(s) failed after retries" in unit.error
    first = server.request_count

    assert execute_unit(unit.pk, worker="w").outcome == "done"
    unit.refresh_from_db()
    assert unit.status == UnitStatus.DONE and unit.attempts == 2 and unit.output is not None
    assert unit.calls_made == 2 and unit.calls_cached == first - 2  # only the failed calls again
    assert server.request_count == first + 2


def test_a_model_that_cannot_be_called_fails_at_once(run_request, server):
    run, unit = one_unit_run(run_request, server)
    server.behaviour.status(401, times=1000, message="invalid api key")
    assert execute_unit(unit.pk, worker="w").outcome == "failed"
    unit.refresh_from_db()
    assert unit.status == UnitStatus.FAILED and unit.failures == 1 and "auth" in unit.error
    for other in run.units.exclude(pk=unit.pk):
        execute_unit(other.pk, worker="w")
    finished = finalize_run(run.pk)
    assert finished.status == RunStatus.FAILED and "every unit failed" in finished.error
