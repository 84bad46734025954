"""One write path for study setup: the admin saves Study, ModelEndpoint and Instrument through
``save_setup``, which validates, audits every change (before and after, never a secret), keeps
what data depends on fixed, and the admin page shows the object's history."""

import pytest
from django.core.exceptions import ValidationError
from django.forms.models import model_to_dict
from django.urls import reverse

from annotations.models import AuditEntry, Instrument, ModelEndpoint
from annotations.services.setup import SetupError, save_setup, setup_history
from tests.factories import make_conversation, make_endpoint, make_study

pytestmark = pytest.mark.django_db


def _form_data(obj) -> dict:
    data = {k: v for k, v in model_to_dict(obj).items() if v is not None}
    for key in ("params", "topics", "definition", "languages", "translations"):
        if key in data:
            import json

            data[key] = json.dumps(data[key])
    return data


def test_an_endpoint_edit_in_the_admin_is_audited_with_before_and_after(researcher_client):
    endpoint = make_endpoint(system_prompt="Be kind.", params={"temperature": 0.7})
    url = reverse("admin:annotations_modelendpoint_change", args=[endpoint.pk])
    data = {**_form_data(endpoint), "system_prompt": "Be brief.", "params": '{"temperature": 0.2}'}
    response = researcher_client.post(url, data)
    assert response.status_code == 302, response.text[:2000]
    endpoint.refresh_from_db()
    assert endpoint.system_prompt == "Be brief."
    (entry,) = AuditEntry.objects.filter(action="annotations.modelendpoint.update")
    assert entry.actor_label.startswith("user:")
    assert entry.data["changes"] == {
        "system_prompt": {"before": "Be kind.", "after": "Be brief."},
        "params": {"before": {"temperature": 0.7}, "after": {"temperature": 0.2}},
    }
    page = researcher_client.get(url).text
    assert "History (audit log)" in page and "annotations.modelendpoint.update" in page
    assert "Be brief." in page


def test_a_study_edit_records_the_model_pool_and_shows_its_history(researcher_client):
    study = make_study(title="Before")
    endpoint = make_endpoint()
    url = reverse("admin:annotations_study_change", args=[study.pk])
    data = {**_form_data(study), "title": "After", "model_pool": [endpoint.pk]}
    response = researcher_client.post(url, data)
    assert response.status_code == 302, response.text[:2000]
    (entry,) = setup_history(study)
    assert entry.action == "annotations.study.update"
    assert entry.data["changes"]["title"] == {"before": "Before", "after": "After"}
    assert entry.data["changes"]["model_pool"] == {"before": [], "after": [endpoint.pk]}


def test_publishing_system_prompts_is_a_study_setting_edited_in_the_admin(researcher_client):
    study = make_study()
    assert not study.publish_system_prompts  # releases hold only the prompts' hashes by default
    url = reverse("admin:annotations_study_change", args=[study.pk])
    data = {**_form_data(study), "publish_system_prompts": "on"}
    response = researcher_client.post(url, data)
    assert response.status_code == 302, response.text[:2000]
    study.refresh_from_db()
    assert study.publish_system_prompts
    (entry,) = setup_history(study)
    assert entry.data["changes"] == {"publish_system_prompts": {"before": False, "after": True}}


def test_no_secret_reaches_the_audit_log():
    endpoint = save_setup(
        ModelEndpoint(
            alias="secretive",
            litellm_model="openai/x",
            api_base="https://bob:hunter2@llm.example.org/v1?key=abc",
        ),
        actor_label="test",
    )
    (entry,) = setup_history(endpoint)
    assert entry.action == "annotations.modelendpoint.create"
    text = str(entry.data)
    assert "hunter2" not in text and "key=abc" not in text and "bob" not in text
    assert "https://llm.example.org/v1" in text


def test_a_key_in_the_parameters_is_refused_and_nothing_is_written():
    endpoint = make_endpoint(params={"temperature": 0.5})
    endpoint.params = {"temperature": 0.5, "api_key": "sk-123"}
    with pytest.raises(SetupError) as error:  # a ServiceError naming the field
        save_setup(endpoint, actor_label="test")
    assert error.value.field == "params"
    endpoint.refresh_from_db()
    assert endpoint.params == {"temperature": 0.5}
    assert not setup_history(endpoint)


def test_what_data_depends_on_stays_fixed(study):
    conversation = make_conversation(study)
    endpoint = conversation.model_endpoint
    endpoint.litellm_model = "openai/another"
    with pytest.raises(ValidationError) as error:
        save_setup(endpoint, actor_label="test")
    assert "litellm_model" in error.value.message_dict
    endpoint.refresh_from_db()
    endpoint.system_prompt = "A new prompt is fine: conversations keep their snapshot."
    save_setup(endpoint, actor_label="test")

    study.slug = "renamed"
    with pytest.raises(ValidationError) as error:
        save_setup(study, actor_label="test")
    assert "slug" in error.value.message_dict

    instrument = Instrument.objects.get(pk=study.instrument_id)
    instrument.description = "edited"
    with pytest.raises(ValidationError):
        save_setup(instrument, actor_label="test")


def test_fixed_fields_are_read_only_in_the_admin(researcher_client, study):
    endpoint = make_conversation(study).model_endpoint
    page = researcher_client.get(
        reverse("admin:annotations_modelendpoint_change", args=[endpoint.pk])
    )
    assert 'name="litellm_model"' not in page.text and 'name="system_prompt"' in page.text
