"""A registry endpoint's tokens-per-minute limit reaches Django runs, and the units a worker
process runs share one call pool: its tokens-per-minute window spans the units."""

from dataclasses import replace

import pytest

from annotations.models import ModelEndpoint
from attune_collect.llm.testing import run_test_server
from evaluation.call_cache import process_call_pool
from evaluation.engine import model_spec
from evaluation.services.creation import create_run, start_run
from evaluation.services.units import execute_unit
from tests.engine.conftest import server_json_reply
from tests.factories import make_test_server_endpoint

pytestmark = pytest.mark.django_db
KEY_ENV = "LIMITS_TEST_API_KEY"


def test_the_endpoint_settings_reach_the_engine_and_the_gateway():
    endpoint = ModelEndpoint.objects.create(
        alias="limited",
        litellm_model="openai/m",
        api_base="http://127.0.0.1:9/v1",
        tokens_per_minute=50_000,
        force_litellm=True,
    )

    config = endpoint.gateway_config()
    spec = model_spec(endpoint)

    assert (config.name, config.tokens_per_minute, config.force_litellm) == (
        "limited",
        50_000,
        True,
    )
    # The engine calls the same endpoint, named by its model string (shared limits with judges).
    assert spec == replace(config, name="openai/m")


def test_units_of_one_process_book_tokens_in_one_window(run_request, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    with run_test_server(server_json_reply) as server:
        endpoint = make_test_server_endpoint(server.base_url, KEY_ENV, tokens_per_minute=10_000_000)
        run = create_run(
            run_request(models=(endpoint,), subsample="sample3"), actor_label="t", inline=True
        )
        start_run(run.pk)
        first, second = run.units.order_by("pk")[:2]

        assert execute_unit(first.pk, worker="w").outcome == "done"
        limiter = process_call_pool()._token_limit_for(model_spec(endpoint))
        after_first = limiter.booked()
        assert execute_unit(second.pk, worker="w").outcome == "done"

    assert process_call_pool()._token_limit_for(model_spec(endpoint)) is limiter
    assert 0 < after_first < limiter.booked()  # the second unit booked into the same window
