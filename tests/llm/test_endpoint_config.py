"""EndpointConfig is a frozen, validated value that survives pickling (worker processes)."""

import dataclasses
import pickle

import pytest

from attune_collect.llm import EndpointConfig


def test_is_frozen_with_read_only_params():
    endpoint = EndpointConfig(name="e", model="openai/x", params={"temperature": 0.1})

    with pytest.raises(dataclasses.FrozenInstanceError):
        endpoint.name = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        endpoint.params["temperature"] = 1.0  # type: ignore[index]


def test_survives_pickling_and_hashing():
    endpoint = EndpointConfig(name="e", model="openai/x", params={"temperature": 0.1})

    assert pickle.loads(pickle.dumps(endpoint)) == endpoint
    assert hash(endpoint) == hash(EndpointConfig(name="e", model="openai/x"))


@pytest.mark.parametrize(
    "bad",
    [{"max_concurrency": 0}, {"requests_per_minute": 0}, {"timeout_s": 0}, {"max_retries": -1}],
)
def test_rejects_impossible_limits(bad):
    with pytest.raises(ValueError):
        EndpointConfig(name="e", model="openai/x", **bad)
