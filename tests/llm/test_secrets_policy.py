"""The secrets policy (attune_collect/llm/secrets_policy.py): which variables may hold an
endpoint's key, and which parameter names and values count as credentials."""

import pytest

from attune_collect.llm.secrets_policy import (
    REDACTED,
    KeyEnvPolicy,
    credential_paths,
    key_env_policy,
    params_problem,
    redact_params,
    use_key_env_policy,
)

PLATFORM_NAMES = [
    "DJANGO_SECRET_KEY",
    "ATTUNE_PSEUDONYM_SALT",
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "AWS_SECRET_ACCESS_KEY",
    # Matching the pattern does not make the platform's own names fit to send away.
    "ATTUNE_OPENAI_API_KEY",
    "DJANGO_ADMIN_TOKEN",
    "AWS_SESSION_TOKEN",
    "CELERY_RESULT_API_KEY",
]


class TestKeyVariables:
    @pytest.mark.parametrize("name", ["OPENAI_API_KEY", "HF_TOKEN", "LAB_VLLM_API_KEY"])
    def test_names_ending_in_api_key_or_token_are_allowed(self, name):
        assert KeyEnvPolicy().problem(name) is None

    @pytest.mark.parametrize("name", PLATFORM_NAMES)
    def test_the_platforms_own_variables_are_refused(self, name):
        problem = KeyEnvPolicy().problem(name)
        assert problem is not None and name in problem

    @pytest.mark.parametrize("name", ["HOME", "PATH", "EMAIL_HOST_PASSWORD", "OPENAI_KEY"])
    def test_other_names_are_refused(self, name):
        assert KeyEnvPolicy().problem(name) is not None

    def test_a_name_listed_explicitly_is_allowed_even_a_platform_one(self):
        policy = KeyEnvPolicy(allowed=frozenset({"LAB_KEY", "AWS_BEDROCK_API_KEY"}))
        assert policy.problem("LAB_KEY") is None
        assert policy.problem("AWS_BEDROCK_API_KEY") is None
        assert policy.problem("AWS_SESSION_TOKEN") is not None

    def test_a_configured_pattern_replaces_the_default(self):
        policy = KeyEnvPolicy(pattern=r"LAB_[A-Z]+_KEY")
        assert policy.problem("LAB_VLLM_KEY") is None
        assert policy.problem("OPENAI_API_KEY") is not None
        assert policy.problem("DJANGO_SECRET_KEY") is not None

    def test_a_pattern_must_match_the_whole_name(self):
        assert KeyEnvPolicy().problem("OPENAI_API_KEY_BACKUP") is not None

    def test_a_bad_pattern_or_name_is_refused(self):
        with pytest.raises(ValueError):
            KeyEnvPolicy(pattern="(")
        with pytest.raises(ValueError):
            KeyEnvPolicy(allowed=frozenset({"lower-case"}))

    def test_the_installed_source_is_read_at_every_check(self):
        current = {"policy": KeyEnvPolicy(allowed=frozenset({"ONE"}))}
        before = key_env_policy()
        previous = use_key_env_policy(lambda: current["policy"])
        try:
            assert key_env_policy().problem("ONE") is None
            current["policy"] = KeyEnvPolicy()
            assert key_env_policy().problem("ONE") is not None
        finally:
            use_key_env_policy(previous)
        assert key_env_policy() == before

    def test_without_a_source_the_default_applies(self):
        previous = use_key_env_policy(None)
        try:
            assert key_env_policy() == KeyEnvPolicy()
        finally:
            use_key_env_policy(previous)


class TestParams:
    @pytest.mark.parametrize(
        "name",
        [
            "api_key",
            "openai_api_key",
            "apikey",
            "x-api-key",
            "X-Api-Key",
            "Bearer",
            "authorization",
            "token",
            "access_token",
            "HF_TOKEN",
            "secret",
            "client_secret",
            "password",
            "aws_secret_access_key",
            "aws_access_key_id",
            "extra_headers",
            "Extra-Headers",
            "EXTRAHEADERS",
            "default headers",
            "headers",
            "vertex_credentials",
        ],
    )
    def test_credential_and_header_names_are_refused_in_any_spelling(self, name):
        assert credential_paths({name: "x"}) == [f"params.{name}"]

    @pytest.mark.parametrize(
        "name",
        [
            "temperature",
            "top_p",
            "max_tokens",
            "max_completion_tokens",
            "token_delay_ms",
            "top_logprobs",
            "stop",
            "seed",
            "response_format",
            "extra_body",
            "user",
        ],
    )
    def test_sampling_parameters_pass(self, name):
        assert credential_paths({name: 1}) == []

    def test_nested_keys_are_found_in_objects_and_lists(self):
        params = {
            "temperature": 0.2,
            "extra_body": {"options": [{"num_ctx": 4096}, {"api_key": "sk-x"}]},
        }
        assert credential_paths(params) == ["params.extra_body.options[1].api_key"]

    def test_values_that_are_credentials_are_found_under_any_key(self):
        params = {"user": "Bearer abc.def", "stop": ["sk-abcdefghijklmnop"], "seed": 3}
        assert credential_paths(params) == ["params.user", "params.stop[0]"]

    def test_the_message_names_the_path_never_the_value(self):
        problem = params_problem({"extra_body": {"api_key": "sk-live-VALUE-123456"}})
        assert problem is not None
        assert "params.extra_body.api_key" in problem
        assert "sk-live-VALUE-123456" not in problem

    def test_clean_params_have_no_problem(self):
        assert params_problem({"temperature": 0.7, "max_tokens": 300}) is None

    def test_redaction_keeps_the_shape_and_drops_every_credential(self):
        params = {
            "temperature": 0.2,
            "X-API-KEY": "sk-one-123456789",
            "extra_body": {"nested": [{"authorization": "Bearer two"}, "Bearer three"]},
            "extra_headers": {"x": "four"},
        }
        assert redact_params(params) == {
            "temperature": 0.2,
            "X-API-KEY": REDACTED,
            "extra_body": {"nested": [{"authorization": REDACTED}, REDACTED]},
            "extra_headers": REDACTED,
        }
