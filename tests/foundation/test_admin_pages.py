"""The admin lists every model; participant-authored content is read-only; outsiders get nothing."""

import pytest
from django.contrib import admin
from django.urls import reverse

from annotations.models import Conversation, Turn
from tests.factories import make_conversation

pytestmark = pytest.mark.django_db

ANNOTATION_MODELS = [m for m in admin.site._registry if m._meta.app_label == "annotations"]


@pytest.fixture
def conversation(study):
    return make_conversation(study)


@pytest.mark.parametrize("model", ANNOTATION_MODELS, ids=lambda m: m._meta.model_name)
def test_every_changelist_lists_the_rows_for_a_researcher(researcher_client, conversation, model):
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    response = researcher_client.get(url)
    assert response.status_code == 200
    changelist = response.context["cl"]
    # Every row of the model is listed (a researcher with no study membership sees them all),
    # and the page is the model's own list, not an error or an empty shell.
    assert changelist.model is model
    assert changelist.result_count == model._default_manager.count()
    assert str(model._meta.verbose_name_plural).lower() in response.text.lower()


def test_search_and_filters_work(researcher_client, conversation):
    url = reverse("admin:annotations_conversation_changelist")
    response = researcher_client.get(
        url, {"q": conversation.external_id, "state__exact": "completed"}
    )
    assert response.status_code == 200
    assert conversation.external_id in response.text


def test_participant_content_is_read_only(researcher_client, conversation):
    turn = conversation.turns.first()
    change_url = reverse("admin:annotations_turn_change", args=[turn.pk])
    response = researcher_client.get(change_url)
    assert response.status_code == 200
    assert 'name="user_message"' not in response.text  # shown, not editable
    response = researcher_client.post(change_url, {"user_message": "rewritten"})
    assert response.status_code == 403
    turn.refresh_from_db()
    assert turn.user_message != "rewritten"
    assert researcher_client.get(reverse("admin:annotations_conversation_add")).status_code == 403
    delete_url = reverse("admin:annotations_conversation_delete", args=[conversation.pk])
    assert researcher_client.post(delete_url, {"post": "yes"}).status_code == 403
    assert (
        Conversation.objects.filter(pk=conversation.pk).exists()
        and Turn.objects.filter(pk=turn.pk).exists()
    )


def test_outsider_and_anonymous_are_sent_to_login(client, outsider, conversation):
    url = reverse("admin:annotations_conversation_changelist")
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    response = client.get(url)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
