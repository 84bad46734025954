"""Issue 40, item 1: each model's and judge's configuration in the report: model string,
allow-listed sampling parameters (others withheld by name), the system prompt sent (version,
sha256), a configuration id over what decides the answers, and the endpoint settings apart."""

import hashlib
import json

import pytest

from attunebench.prompts import load_prompt_set
from attunebench.report.configurations import (
    api_base_host,
    benchmark_system_prompt_sha256,
    model_configuration,
)

RECORD = {
    "alias": "judge-one",
    "provider": "openai",
    "model_name": "gpt-x",
    "model": "openai/gpt-x",
    "api_base": "https://user:pw@api.example.org:8443/v1?key=s3cr3t",
    "params": {"temperature": 0.2, "max_tokens": 400, "logit_bias": {"1": 2}},
    "system_prompt_version": "chat-3",
    "system_prompt_sha256": "c" * 64,
    "max_concurrency": 8,
    "requests_per_minute": 60,
    "tokens_per_minute": None,
    "timeout_s": 30.0,
    "max_retries": 2,
    "force_litellm": False,
}


def configuration():
    return model_configuration(
        "judge", RECORD, system_prompt_sha256="a" * 64, system_prompt_version="v1-abc"
    )


def test_parameters_pass_an_allow_list_and_the_rest_is_named_only():
    found = configuration()
    assert found.params == {"temperature": 0.2, "max_tokens": 400}
    assert found.params_withheld == ("logit_bias",)
    assert found.params_text() == "max_tokens=400, temperature=0.2; withheld: logit_bias"
    assert "{'1': 2}" not in json.dumps(found.to_dict())


def test_the_configuration_id_hashes_what_decides_the_answers_by_hand():
    # Canonical JSON (sorted keys, no spaces) of model, API host, every parameter and the
    # system prompt sent; the first 16 hex digits of its sha256.
    identity = (
        '{"api_base_host":"api.example.org:8443",'
        '"model":"openai/gpt-x",'
        '"params":{"logit_bias":{"1":2},"max_tokens":400,"temperature":0.2},'
        f'"system_prompt_sha256":"{"a" * 64}",'
        '"system_prompt_version":"v1-abc"}'
    )
    expected = hashlib.sha256(identity.encode()).hexdigest()[:16]
    assert configuration().configuration_id == expected
    # A withheld parameter still changes the id; an endpoint setting does not.
    other = dict(RECORD, params={**RECORD["params"], "logit_bias": {"1": 3}})
    slower = dict(RECORD, max_concurrency=1, requests_per_minute=5)
    kwargs = {"system_prompt_sha256": "a" * 64, "system_prompt_version": "v1-abc"}
    assert model_configuration("judge", other, **kwargs).configuration_id != expected
    assert model_configuration("judge", slower, **kwargs).configuration_id == expected


def test_endpoint_settings_stand_apart_and_the_api_base_is_its_host():
    found = configuration()
    assert found.api_base_host == "api.example.org:8443"
    assert "s3cr3t" not in json.dumps(found.to_dict()) and "pw" not in found.api_base_host
    assert found.endpoint_settings == {
        "max_concurrency": 8,
        "requests_per_minute": 60,
        "tokens_per_minute": None,
        "timeout_s": 30.0,
        "max_retries": 2,
        "force_litellm": False,
    }
    assert (found.endpoint_system_prompt_version, found.system_prompt_version) == (
        "chat-3",
        "v1-abc",
    )


def test_the_system_prompts_the_benchmark_sends_are_hashed_per_role():
    prompts = load_prompt_set("v1")
    hashes = benchmark_system_prompt_sha256(prompts)
    sent = prompts.render("system", placeholder=prompts.render("placeholder"))
    assert hashes["model"] == hashlib.sha256(sent.encode()).hexdigest()
    judge = prompts.render("judge_system")
    assert hashes["judge"] == hashlib.sha256(judge.encode()).hexdigest()


def test_an_unknown_role_is_refused():
    with pytest.raises(ValueError, match="role"):
        model_configuration("oracle", RECORD, system_prompt_sha256="", system_prompt_version="")


@pytest.mark.parametrize(
    "recorded", ["api.example.org:8443", "https://user:pw@api.example.org:8443/v1?key=s3cr3t"]
)
def test_a_host_already_reduced_stays_that_host(recorded):
    # The admin's endpoint record keeps the host only; its report reads that record again.
    assert api_base_host(recorded) == "api.example.org:8443"
