"""Configuration snapshots hold system prompts and parameters: a user limited to study A (a
viewer included) lists and opens only those A's conversations ran under, never study B's; a
lab-wide user sees them all."""

import pytest
from django.urls import reverse

from annotations.models import Conversation, ModelConfig
from annotations.services.model_configs import snapshot
from tests.factories import make_conversation, make_staff, make_study

pytestmark = pytest.mark.django_db

LIST = reverse("admin:annotations_modelconfig_changelist")


def config_for(study, prompt: str) -> ModelConfig:
    config = snapshot({"endpoint": {"model": "attune-demo/x", "system_prompt": prompt}})
    conversation = make_conversation(study)
    Conversation.objects.filter(pk=conversation.pk).update(model_config=config)
    return config


@pytest.fixture
def configs():
    a, b = make_study(slug="study-a"), make_study(slug="study-b")
    return a, config_for(a, "The prompt of A."), config_for(b, "The secret prompt of B.")


def change(config: ModelConfig) -> str:
    return reverse("admin:annotations_modelconfig_change", args=[config.pk])


@pytest.mark.parametrize("role", ["viewer", "researcher"])
def test_a_limited_user_sees_only_their_studys_configs(client, configs, role):
    a, of_a, of_b = configs
    client.force_login(make_staff(role, studies={a: role}))
    page = client.get(LIST).text
    assert of_a.config_hash in page and of_b.config_hash not in page
    assert "The prompt of A." in client.get(change(of_a)).text
    response = client.get(change(of_b))
    assert response.status_code == 302
    assert "The secret prompt of B." not in client.get(response.url).text


def test_a_shared_config_counts_only_the_users_conversations(client, configs):
    a, of_a, _ = configs
    other = make_conversation(make_study(slug="study-c"))
    Conversation.objects.filter(pk=other.pk).update(model_config=of_a)
    client.force_login(make_staff("viewer", studies={a: "viewer"}))
    page = client.get(LIST).text
    row = next(row for row in page.split("<tr") if of_a.config_hash in row)
    assert '<td class="field-conversation_count">1</td>' in row


def test_a_lab_wide_viewer_sees_them_all(client, configs, viewer):
    _, of_a, of_b = configs
    client.force_login(viewer)
    page = client.get(LIST).text
    assert of_a.config_hash in page and of_b.config_hash in page
    assert "The secret prompt of B." in client.get(change(of_b)).text
