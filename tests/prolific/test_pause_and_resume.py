"""Pause and resume from the link's page: Prolific's study and Attune's study follow, audited;
while paused, a newcomer is refused and a participant already in may go on."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import AuditEntry, Study, StudyStatus
from annotations.services.errors import FlowError
from annotations.services.participants import start_participant
from tests.prolific.conftest import PROLIFIC_STUDY

pytestmark = pytest.mark.django_db


def test_pause_then_resume(client, researcher, linked_study, prolific_server):
    url = reverse("admin:annotations_prolificlink_recruiting", args=[linked_study.prolific.pk])
    client.force_login(researcher)
    assert client.post(url, {"action": "PAUSE"}).status_code == 302
    assert prolific_server.study_status(PROLIFIC_STUDY) == "PAUSED"
    assert Study.objects.get(pk=linked_study.pk).status == StudyStatus.PAUSED
    with pytest.raises(FlowError) as refused:
        start_participant(linked_study.slug, prolific_pid="a" * 24)
    assert refused.value.code == "study_paused"
    assert client.post(url, {"action": "START"}).status_code == 302
    assert prolific_server.study_status(PROLIFIC_STUDY) == "ACTIVE"
    assert Study.objects.get(pk=linked_study.pk).status == StudyStatus.RECRUITING
    actions = list(
        AuditEntry.objects.filter(action__startswith="prolific.study.")
        .order_by("pk")
        .values_list("action", "actor")
    )
    assert actions == [
        ("prolific.study.pause", researcher.pk),
        ("prolific.study.start", researcher.pk),
    ]
