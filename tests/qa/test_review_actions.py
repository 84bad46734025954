"""Review decisions: approve, exclude (with a reason, never deleting), second review, refusals."""

import pytest
from django.urls import reverse

from annotations.models import Conversation, ConversationState, Turn
from annotations.qa.models import ConversationReview, Review, ReviewStatus, StudyQASettings
from annotations.qa.services import QAError
from annotations.qa.services.reviews import ReviewInput, submit_review
from tests.factories import make_conversation, make_staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def single(study):
    StudyQASettings.objects.create(study=study, double_review_share=0)  # no blind double review
    return make_conversation(study)


def test_approve_is_final(single, reviewer):
    qa = submit_review(single, reviewer, ReviewInput("approve", note="fine"))
    assert qa.status == ReviewStatus.APPROVED and qa.final_decision == "approve"
    assert qa.decided_by == reviewer
    single.refresh_from_db()
    assert single.state == ConversationState.COMPLETED


def test_exclude_moves_the_state_and_deletes_nothing(single, reviewer):
    turns = Turn.objects.filter(conversation=single).count()
    qa = submit_review(single, reviewer, ReviewInput("exclude", "low_effort", "one-word answers"))
    single.refresh_from_db()
    assert single.state == ConversationState.EXCLUDED
    assert qa.exclusion_reason == "low_effort"
    assert Conversation.objects.filter(pk=single.pk).exists()
    assert Turn.objects.filter(conversation=single).count() == turns


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (ReviewInput("exclude"), "needs a reason"),
        (ReviewInput("exclude", "other"), "needs a note"),
        (ReviewInput("approve", "low_effort"), "Only an exclusion takes a reason"),
        (ReviewInput("maybe"), "Choose one of"),
        (ReviewInput("approve", flag_verdicts={12345: "confirmed"}), "not an open flag"),
    ],
)
def test_invalid_decisions_change_nothing(single, reviewer, data, message):
    with pytest.raises(QAError, match=message):
        submit_review(single, reviewer, data)
    assert not Review.objects.exists()
    assert not ConversationReview.objects.exclude(status=ReviewStatus.PENDING).exists()


def test_only_completed_conversations_are_reviewed(single, reviewer):
    Conversation.objects.filter(pk=single.pk).update(state=ConversationState.CHATTING)
    with pytest.raises(QAError, match="Only completed"):
        submit_review(single, reviewer, ReviewInput("approve"))


def test_a_decided_conversation_takes_no_more_reviews(single, reviewer):
    submit_review(single, reviewer, ReviewInput("approve"))
    other = make_staff("qa_reviewer")
    with pytest.raises(QAError, match="takes no review now"):
        submit_review(single, other, ReviewInput("exclude", "low_effort"))


def test_second_review_goes_to_another_reviewer_who_decides(single, reviewer):
    qa = submit_review(single, reviewer, ReviewInput("second_review", note="not sure about turn 2"))
    assert qa.status == ReviewStatus.AWAITING_SECOND
    with pytest.raises(QAError, match="another reviewer"):
        submit_review(single, reviewer, ReviewInput("approve"))
    second = make_staff("qa_reviewer")
    qa = submit_review(single, second, ReviewInput("exclude", "not_genuine"))
    assert qa.status == ReviewStatus.EXCLUDED and qa.decided_by == second
    assert not Review.objects.get(
        conversation=single, stage="second"
    ).blind  # an escalation is not blind


def test_two_escalations_go_to_adjudication(single, reviewer):
    submit_review(single, reviewer, ReviewInput("second_review"))
    qa = submit_review(single, make_staff("qa_reviewer"), ReviewInput("second_review"))
    assert qa.status == ReviewStatus.DISAGREEMENT


def test_the_review_form_posts_and_moves_on(client, single, reviewer, study):
    following = make_conversation(study)
    client.force_login(reviewer)
    response = client.post(
        reverse("qa:review", args=[single.pk]), {"decision": "approve", "note": "", "then": "next"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("qa:conversation", args=[following.pk])
    assert ConversationReview.objects.get(conversation=single).status == ReviewStatus.APPROVED


def test_a_refused_decision_is_shown_not_raised(client, single, reviewer):
    client.force_login(reviewer)
    url = reverse("qa:review", args=[single.pk])
    response = client.post(url, {"decision": "exclude", "exclusion_reason": ""}, follow=True)
    assert "Excluding needs a reason" in response.text
    assert not Review.objects.exists()
