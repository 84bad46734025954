"""Who may review findings and erase participants, tested from the other side: a viewer, a
user outside the study and a reviewer limited to another study can do neither; a reviewer
reviews but never erases; the admin offers the erasure only to those who may."""

import pytest

from annotations.models import Participant
from annotations.qa.models import FindingStatus, ParticipantErasure, PersonalDetailFinding
from annotations.qa.services import QAError
from annotations.qa.services.personal_details import (
    decide_finding,
    erase_participant,
    mark_missed,
    scan_conversation,
)
from tests.factories import build_record, build_turn, make_conversation, make_staff, make_study

pytestmark = pytest.mark.django_db
PATH = "turns[turnNumber=1].userMessage"


@pytest.fixture
def finding(study) -> PersonalDetailFinding:
    record = build_record(turns=(build_turn(1, user_message="mail me: kim.ho@example.net"),))
    conversation = make_conversation(study, record=record)
    assert scan_conversation(conversation.pk) == 1
    return PersonalDetailFinding.objects.get()


@pytest.fixture
def elsewhere_reviewer(study):
    return make_staff("qa_reviewer", studies={make_study(): "qa_reviewer"})


@pytest.mark.parametrize("who", ["viewer", "outsider", "elsewhere_reviewer"])
def test_cannot_review(request, finding, who):
    user = request.getfixturevalue(who)
    with pytest.raises(QAError):
        decide_finding(finding, actor=user, accept=False)
    with pytest.raises(QAError):
        mark_missed(finding.conversation, actor=user, field_path=PATH, start=0, end=4, kind="name")
    finding.refresh_from_db()
    assert finding.status == FindingStatus.PENDING
    assert PersonalDetailFinding.objects.count() == 1


@pytest.mark.parametrize("who", ["viewer", "outsider", "reviewer", "elsewhere_reviewer"])
def test_cannot_erase(request, finding, who):
    participant = finding.conversation.participant
    with pytest.raises(QAError):
        erase_participant(participant, actor=request.getfixturevalue(who))
    assert not Participant.objects.get(pk=participant.pk).withdrawn
    assert not ParticipantErasure.objects.exists()


def test_reviewer_reviews_and_the_decision_is_audited(finding, reviewer):
    from annotations.models import AuditEntry

    decide_finding(finding, actor=reviewer, accept=True, start=8, end=27)
    finding.refresh_from_db()
    assert (finding.status, finding.start, finding.end) == (FindingStatus.ACCEPTED, 8, 27)
    entry = AuditEntry.objects.get(action="qa.personal_detail.edit")
    assert entry.actor == reviewer
    assert "kim.ho" not in str(entry.data)  # positions and kinds only, never the detail


def test_admin_offers_the_erasure_only_with_the_permission(finding, client, researcher, viewer):
    url = "/admin/annotations/participant/"
    client.force_login(researcher)
    assert "erase_on_request" in client.get(url).content.decode()
    client.force_login(viewer)
    assert "erase_on_request" not in client.get(url).content.decode()
    participant = finding.conversation.participant
    client.post(url, {"action": "erase_on_request", "_selected_action": [participant.pk]})
    assert not ParticipantErasure.objects.exists()
    client.force_login(researcher)
    client.post(url, {"action": "erase_on_request", "_selected_action": [participant.pk]})
    assert ParticipantErasure.objects.get().participant_id == participant.pk
