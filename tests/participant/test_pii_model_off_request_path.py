"""The model mode of personal-detail detection is the workers', never a request's: with it on,
completing a conversation (the request that queues the scan) asks the model nothing; the
queued task does."""

import json
from dataclasses import replace

import pytest
from django.conf import settings
from django.test import override_settings

from annotations.models import Conversation
from annotations.qa.models import PersonalDetailFinding
from annotations.qa.services.personal_details import scan_conversation
from tests.participant.test_completion import POST

pytestmark = pytest.mark.django_db

SCAN = "qa.scan_personal_details"


def test_completion_queues_the_scan_and_asks_no_model(
    participant_client,
    answered_turn,
    upstream_endpoint,
    openai_server,
    sent_tasks,
    django_capture_on_commit_callbacks,
):
    openai_server.behaviour.reply = lambda body: json.dumps(
        {"details": [{"kind": "name", "text": "Anjali"}]}
    )
    model_on = replace(settings.ATTUNE, personal_details_endpoint=upstream_endpoint.alias)
    with override_settings(ATTUNE=model_on):
        client = participant_client()
        client.onboard()
        client.annotate(answered_turn(client, "Anjali said I should talk to someone."))
        client.post("finish")
        client.post("panas/post", {"items": client.panas_items(5)})
        before = openai_server.behaviour.request_count
        with django_capture_on_commit_callbacks(execute=True):
            assert client.post("post-survey", POST).body["step"] == "complete"
        assert openai_server.behaviour.request_count == before  # the request asked no model
        conversation = Conversation.objects.get()
        assert sent_tasks[SCAN] == [conversation.pk]
        assert not PersonalDetailFinding.objects.exists()

        scan_conversation(conversation.pk)  # what the worker does
    assert openai_server.behaviour.request_count > before
    assert PersonalDetailFinding.objects.filter(detector="model", kind="name").exists()
