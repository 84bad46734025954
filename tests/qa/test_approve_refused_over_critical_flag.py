"""Approving a conversation whose critical flag (a participant at risk) has no verdict is
refused with a clear message and changes nothing; a verdict, in the review or given before,
lets the approval through. Two blind approvals that judged the flag differently go to
adjudication rather than leaving it open on an approved conversation."""

import pytest
from django.urls import reverse

from annotations.qa.models import (
    ConversationReview,
    Flag,
    FlagStatus,
    Review,
    ReviewStatus,
    StudyQASettings,
)
from annotations.qa.services import QAError
from annotations.qa.services.flagging import resolve_flag
from annotations.qa.services.reviews import ReviewInput, submit_review
from tests.factories import build_record, build_turn, make_conversation, make_staff
from tests.qa.conftest import flags_of

pytestmark = pytest.mark.django_db

REFUSAL = "open critical flag \\(Risk signal\\): confirm or dismiss it before approving"


def at_risk(study, share: float):
    StudyQASettings.objects.create(study=study, double_review_share=share)
    record = build_record(turns=(build_turn(1, user_message="I don’t want to be alive anymore"),))
    conversation = make_conversation(study, record=record)
    return conversation, flags_of(conversation)["risk_signal"]


def test_approve_without_a_verdict_is_refused_and_changes_nothing(study, reviewer):
    conversation, flag = at_risk(study, share=0)
    with pytest.raises(QAError, match=REFUSAL):
        submit_review(conversation, reviewer, ReviewInput("approve"))
    assert not Review.objects.exists()
    assert ConversationReview.objects.get(conversation=conversation).status == ReviewStatus.PENDING
    assert Flag.objects.get(pk=flag.pk).status == FlagStatus.OPEN


def test_approve_with_a_verdict_in_the_review_goes_through(study, reviewer):
    conversation, flag = at_risk(study, share=0)
    qa = submit_review(
        conversation, reviewer, ReviewInput("approve", flag_verdicts={flag.pk: "dismissed"})
    )
    assert qa.status == ReviewStatus.APPROVED
    assert Flag.objects.get(pk=flag.pk).status == FlagStatus.DISMISSED


def test_approve_after_the_flag_was_resolved_goes_through(study, reviewer):
    conversation, flag = at_risk(study, share=0)
    resolve_flag(flag, status=FlagStatus.CONFIRMED, actor=reviewer)
    assert submit_review(conversation, reviewer, ReviewInput("approve")).status == "approved"


def test_exclude_needs_no_verdict(study, reviewer):
    conversation, _ = at_risk(study, share=0)
    qa = submit_review(conversation, reviewer, ReviewInput("exclude", "safety"))
    assert qa.status == ReviewStatus.EXCLUDED


def test_blind_approvals_judging_the_flag_differently_go_to_adjudication(study, reviewer):
    conversation, flag = at_risk(study, share=1)
    submit_review(
        conversation, reviewer, ReviewInput("approve", flag_verdicts={flag.pk: "dismissed"})
    )
    qa = submit_review(
        conversation,
        make_staff("qa_reviewer", "second"),
        ReviewInput("approve", flag_verdicts={flag.pk: "confirmed"}),
    )
    assert qa.status == ReviewStatus.DISAGREEMENT
    assert Flag.objects.get(pk=flag.pk).status == FlagStatus.OPEN


def test_the_review_page_shows_the_refusal(client, study, reviewer):
    conversation, _ = at_risk(study, share=0)
    client.force_login(reviewer)
    response = client.post(
        reverse("qa:review", args=[conversation.pk]), {"decision": "approve"}, follow=True
    )
    assert "confirm or dismiss it before approving" in response.text
    assert not Review.objects.exists()
