"""A model endpoint's key variable must be allowed and its parameters hold no credential:
refused by the model's validation (the admin's form shows it on the field) and by the setup
service (a ServiceError, nothing written), whoever calls. The gateway checks again
(tests/llm/test_gateway_key_policy.py)."""

from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError
from django.forms.models import model_to_dict
from django.urls import reverse

from annotations.models import AuditEntry, ModelEndpoint
from annotations.services.setup import SetupError, save_setup
from attune_collect.errors import ServiceError
from tests.factories import make_endpoint

pytestmark = pytest.mark.django_db

PLATFORM_NAMES = [
    "DJANGO_SECRET_KEY",
    "ATTUNE_PSEUDONYM_SALT",
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "AWS_SECRET_ACCESS_KEY",
    "ATTUNE_OPENAI_API_KEY",  # ends in _API_KEY, but the platform's own prefix
]
LEAKY_PARAMS = {
    "openai_api_key": {"openai_api_key": "sk-leak"},
    "apikey": {"apikey": "sk-leak"},
    "x-api-key": {"x-api-key": "sk-leak"},
    "Bearer": {"Bearer": "abc"},
    "nested api_key": {"temperature": 0.2, "extra_body": {"api_key": "sk-leak"}},
    "aws_secret_access_key": {"aws_secret_access_key": "x"},
    "Extra_Headers": {"Extra_Headers": {"X-Org": "1"}},
    "a key as a value": {"user": "Bearer abcdef"},
}


def _endpoint(**fields) -> ModelEndpoint:
    return ModelEndpoint(alias="lab-model", litellm_model="openai/gpt-4o", **fields)


class TestValidation:
    @pytest.mark.parametrize("name", PLATFORM_NAMES)
    def test_the_platforms_variables_are_refused_on_the_key_field(self, name):
        with pytest.raises(ValidationError) as raised:
            _endpoint(api_key_env=name).full_clean()
        assert name in str(raised.value.error_dict["api_key_env"])

    @pytest.mark.parametrize("name", ["PATH", "OPENAI_KEY"])
    def test_names_outside_the_pattern_are_refused(self, name):
        with pytest.raises(ValidationError) as raised:
            _endpoint(api_key_env=name).full_clean()
        assert "api_key_env" in raised.value.error_dict

    @pytest.mark.parametrize("name", ["OPENAI_API_KEY", "HF_TOKEN", ""])
    def test_provider_key_names_pass(self, name):
        _endpoint(api_key_env=name).full_clean()

    def test_the_configured_pattern_and_names_apply(self, settings):
        settings.ATTUNE = replace(
            settings.ATTUNE,
            api_key_env_pattern=r"LAB_[A-Z]+_KEY",
            api_key_env_allowed=("HF_TOKEN",),
        )
        _endpoint(api_key_env="LAB_VLLM_KEY").full_clean()
        _endpoint(api_key_env="HF_TOKEN").full_clean()
        with pytest.raises(ValidationError):
            _endpoint(api_key_env="OPENAI_API_KEY").full_clean()

    @pytest.mark.parametrize("params", LEAKY_PARAMS.values(), ids=LEAKY_PARAMS.keys())
    def test_credentials_in_the_parameters_are_refused(self, params):
        with pytest.raises(ValidationError) as raised:
            _endpoint(params=params).full_clean()
        message = " ".join(raised.value.error_dict["params"][0].messages)
        assert "params." in message
        assert "sk-leak" not in message and "abcdef" not in message

    def test_the_path_of_a_nested_key_is_named(self):
        with pytest.raises(ValidationError) as raised:
            _endpoint(params=LEAKY_PARAMS["nested api_key"]).full_clean()
        assert "params.extra_body.api_key" in str(raised.value)

    def test_sampling_parameters_pass(self):
        _endpoint(params={"temperature": 0.2, "max_tokens": 300, "top_p": 0.9}).full_clean()


class TestService:
    @pytest.mark.parametrize("name", PLATFORM_NAMES)
    def test_a_new_endpoint_naming_a_platform_variable_is_not_written(self, name):
        with pytest.raises(SetupError) as raised:
            save_setup(_endpoint(api_key_env=name), actor_label="test")
        assert isinstance(raised.value, ServiceError)
        assert (raised.value.code, raised.value.field) == ("secret_refused", "api_key_env")
        assert not ModelEndpoint.objects.exists()
        assert not AuditEntry.objects.exists()

    @pytest.mark.parametrize("params", LEAKY_PARAMS.values(), ids=LEAKY_PARAMS.keys())
    def test_an_edit_putting_a_credential_in_the_parameters_changes_nothing(self, params):
        endpoint = make_endpoint(params={"temperature": 0.7})
        endpoint.params = params
        with pytest.raises(SetupError) as raised:
            save_setup(endpoint, actor_label="test")
        assert raised.value.field == "params"
        assert "sk-leak" not in str(raised.value)
        endpoint.refresh_from_db()
        assert endpoint.params == {"temperature": 0.7}
        assert not AuditEntry.objects.exists()

    def test_an_edit_to_a_platform_variable_changes_nothing(self):
        endpoint = make_endpoint(api_key_env="OPENAI_API_KEY")
        endpoint.api_key_env = "DJANGO_SECRET_KEY"
        with pytest.raises(SetupError):
            save_setup(endpoint, actor_label="test")
        endpoint.refresh_from_db()
        assert endpoint.api_key_env == "OPENAI_API_KEY"


class TestAdminForm:
    def _post(self, client, **fields):
        data = {k: v for k, v in model_to_dict(_endpoint()).items() if v is not None}
        data.update({"params": "{}", **fields})
        return client.post(reverse("admin:annotations_modelendpoint_add"), data)

    def test_the_key_field_shows_the_refusal(self, admin_client):
        response = self._post(admin_client, api_key_env="DJANGO_SECRET_KEY")
        assert response.status_code == 200
        errors = response.context["adminform"].form.errors
        assert "DJANGO_SECRET_KEY" in " ".join(errors["api_key_env"])
        assert not ModelEndpoint.objects.exists()

    def test_the_params_field_shows_the_refusal(self, admin_client):
        response = self._post(admin_client, params='{"extra_body": {"API-Key": "sk-leak"}}')
        assert response.status_code == 200
        errors = response.context["adminform"].form.errors
        message = " ".join(errors["params"])
        assert "params.extra_body.API-Key" in message and "sk-leak" not in message
        assert not ModelEndpoint.objects.exists()

    def test_an_allowed_name_is_saved(self, admin_client):
        response = self._post(admin_client, api_key_env="OPENAI_API_KEY")
        assert response.status_code == 302, response.context["adminform"].form.errors
        assert ModelEndpoint.objects.get().api_key_env == "OPENAI_API_KEY"
