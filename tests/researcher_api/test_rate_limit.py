"""Requests are limited per token: past the rate, 429 in the one error shape with its wait;
another token of the same user is counted apart."""

from __future__ import annotations

import pytest

from tests.researcher_api.conftest import api, mint

pytestmark = pytest.mark.django_db


def test_a_token_past_its_rate_waits(personas, sides, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"researcher_token": "3/min"},
    }
    first = api(mint(personas["researcher"], [sides["own"].study]))
    second = api(mint(personas["researcher"], [sides["own"].study]))
    assert [first.get("/api/v1/studies/").status_code for _ in range(3)] == [200] * 3
    refused = first.get("/api/v1/studies/")
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert refused.json()["error"]["retry_after"] >= 1
    assert second.get("/api/v1/studies/").status_code == 200
