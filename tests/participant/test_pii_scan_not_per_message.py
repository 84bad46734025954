"""Personal-detail scanning never runs on a chat message's path: a message with details in it,
its reply and its annotation queue no scan and find nothing yet; the scan is queued once, when
the conversation is completed (``test_pii_model_off_request_path.py``), and runs on a worker."""

import pytest

from annotations.qa.models import PersonalDetailFinding

pytestmark = pytest.mark.django_db

SCAN = "qa.scan_personal_details"


def test_a_message_with_details_queues_no_scan(participant_client, answered_turn, sent_tasks):
    client = participant_client()
    client.onboard()
    client.annotate(answered_turn(client, "Write to me at jo.ortiz@example.com or +44 7700 900123"))
    assert sent_tasks, "the capture saw the tasks the message did queue"
    assert SCAN not in sent_tasks
    assert not PersonalDetailFinding.objects.exists()
