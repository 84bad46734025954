"""EndpointConfig is a frozen, validated value, named by its model string unless named."""

import dataclasses

import pytest

from attune_collect.llm import EndpointConfig


def test_is_frozen_with_read_only_params():
    endpoint = EndpointConfig(name="e", model="openai/x", params={"temperature": 0.1})

    with pytest.raises(dataclasses.FrozenInstanceError):
        endpoint.name = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        endpoint.params["temperature"] = 1.0  # type: ignore[index]


def test_hashes_without_its_params():
    endpoint = EndpointConfig(name="e", model="openai/x", params={"temperature": 0.1})

    assert hash(endpoint) == hash(EndpointConfig(name="e", model="openai/x"))


def test_is_named_by_its_model_unless_named():
    # The engine's evaluated model and a judge on one model string share the gateway's limits.
    assert EndpointConfig("openai/x").name == "openai/x"
    assert EndpointConfig("openai/x", name="chat").name == "chat"


@pytest.mark.parametrize(
    "bad",
    [
        {"max_concurrency": 0},
        {"requests_per_minute": 0},
        {"tokens_per_minute": 0},
        {"timeout_s": 0},
        {"max_retries": -1},
        {"model": " "},
    ],
)
def test_rejects_impossible_limits(bad):
    with pytest.raises(ValueError):
        EndpointConfig(**{"name": "e", "model": "openai/x", **bad})
