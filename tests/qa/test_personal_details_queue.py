"""The personal-details queue shows a pending finding in its context and records a decision
and a missed span from the page; a viewer's posts change nothing."""

import pytest
from django.urls import reverse

from annotations.qa.models import FindingStatus, PersonalDetailFinding
from annotations.qa.services.personal_details import scan_conversation
from tests.factories import build_record, build_turn, make_conversation

pytestmark = pytest.mark.django_db


@pytest.fixture
def finding(study):
    record = build_record(turns=(build_turn(1, user_message="I'm Ana, mail ana.r@example.org ok"),))
    conversation = make_conversation(study, record=record)
    scan_conversation(conversation.pk)
    return PersonalDetailFinding.objects.get()


def test_reviewer_sees_decides_and_marks_a_missed_name(client, reviewer, finding):
    client.force_login(reviewer)
    page = client.get(reverse("qa:personal_details")).content.decode()
    assert "mail <mark>ana.r@example.org</mark> ok" in page
    client.post(reverse("qa:personal_detail_decide", args=[finding.pk]), {"decision": "accept"})
    assert PersonalDetailFinding.objects.get(pk=finding.pk).status == FindingStatus.ACCEPTED
    client.post(
        reverse("qa:personal_detail_missed"),
        {
            "conversation": finding.conversation_id,
            "field_path": finding.field_path,
            "start": 4,
            "end": 7,
            "kind": "name",
        },
    )
    marked = PersonalDetailFinding.objects.get(detector="reviewer")
    assert (marked.kind, marked.start, marked.end, marked.status) == ("name", 4, 7, "accepted")


def test_a_viewer_can_neither_open_nor_decide(client, viewer, finding):
    client.force_login(viewer)
    assert client.get(reverse("qa:personal_details")).status_code == 403
    client.post(reverse("qa:personal_detail_decide", args=[finding.pk]), {"decision": "dismiss"})
    response = client.post(
        reverse("qa:personal_detail_missed"),
        {
            "conversation": finding.conversation_id,
            "field_path": finding.field_path,
            "start": 4,
            "end": 7,
            "kind": "name",
        },
    )
    assert response.status_code == 403
    assert list(PersonalDetailFinding.objects.values_list("status", flat=True)) == ["pending"]
