"""Every review decision, flag change and correction writes an audit entry, shown on the page."""

import pytest
from django.urls import reverse

from annotations.models import AuditEntry
from annotations.qa.models import Flag, FlagStatus, StudyMembership, StudyQASettings
from annotations.qa.services.configuration import delete_configuration, save_configuration
from annotations.qa.services.correcting import add_correction, withdraw_correction
from annotations.qa.services.flagging import raise_flag, resolve_flag
from annotations.qa.services.reviews import ReviewInput, submit_review
from tests.factories import build_record, build_turn, make_conversation
from tests.qa.conftest import flags_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversation(study):
    StudyQASettings.objects.create(study=study, double_review_share=0)
    return make_conversation(study, record=build_record(turns=(build_turn(1, user_message="ok"),)))


def actions() -> list[str]:
    return list(
        AuditEntry.objects.filter(action__startswith="qa.")
        .order_by("id")
        .values_list("action", flat=True)
    )


def test_each_qa_action_is_audited(conversation, reviewer):
    flag = flags_of(conversation)["short_messages"]
    manual = raise_flag(conversation, actor=reviewer, summary="odd tone")
    resolve_flag(manual, status=FlagStatus.DISMISSED, actor=reviewer, note="fine after all")
    correction = add_correction(
        conversation,
        field_path="turns[turnNumber=1].moodShiftTags[0].intensity",
        value="2",
        reason="misclick_reported",
        actor=reviewer,
    )
    withdraw_correction(correction, actor=reviewer)
    submit_review(
        conversation,
        reviewer,
        ReviewInput("exclude", "low_effort", flag_verdicts={flag.pk: "confirmed"}),
    )
    assert actions() == [
        "qa.flag.raise",
        "qa.flag.raise",
        "qa.flag.dismiss",
        "qa.correction.add",
        "qa.correction.withdraw",
        "qa.review.first",
        "qa.conversation.exclude",
        "qa.flag.confirm",
        "qa.review.final",
    ]
    exclusion = AuditEntry.objects.get(action="qa.conversation.exclude")
    assert exclusion.actor == reviewer and exclusion.actor_label == "user:reviewer"
    assert exclusion.data == {"from": "completed", "to": "excluded", "reason": "low_effort"}
    assert AuditEntry.objects.get(action="qa.flag.confirm").target_id == str(flag.pk)


def test_configuration_changes_are_audited(study, reviewer, researcher):
    membership = save_configuration(
        StudyMembership(user=reviewer, study=study, role="qa_reviewer"), actor=researcher
    )
    delete_configuration(membership, actor=researcher)
    assert actions() == ["qa.studymembership.create", "qa.studymembership.delete"]
    assert AuditEntry.objects.filter(action__startswith="qa.").first().actor == researcher


def test_the_conversation_shows_its_history(client, conversation, reviewer):
    flags_of(conversation)
    flag = Flag.objects.get(conversation=conversation)
    client.force_login(reviewer)
    client.post(
        reverse("qa:flag_status", args=[flag.pk]), {"status": "confirmed", "note": "seen it"}
    )
    page = client.get(reverse("qa:conversation", args=[conversation.pk])).text
    history = page[page.index("<h2>History</h2>") :]
    assert (
        "qa.flag.raise" in history and "qa.flag.confirm" in history and "user:reviewer" in history
    )


def test_the_admin_saves_memberships_through_the_service(client, study, reviewer, researcher):
    client.force_login(researcher)
    response = client.post(
        reverse("admin:qa_studymembership_add"),
        {"user": reviewer.pk, "study": study.pk, "role": "qa_reviewer"},
    )
    assert response.status_code == 302
    assert actions() == ["qa.studymembership.create"]
