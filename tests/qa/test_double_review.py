"""Blind double review: two reviewers, blind to each other; agreement decides, else adjudication."""

import pytest
from django.urls import reverse

from annotations.models import ConversationState
from annotations.qa.models import (
    ConversationReview,
    Flag,
    FlagStatus,
    ReviewStatus,
    StudyQASettings,
)
from annotations.qa.services import QAError
from annotations.qa.services.flagging import resolve_flag
from annotations.qa.services.intake import is_double_review
from annotations.qa.services.reviews import ReviewInput, adjudicate, submit_review
from tests.factories import build_record, build_turn, make_conversation, make_staff
from tests.qa.conftest import flags_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def double(study):
    StudyQASettings.objects.create(study=study, double_review_share=1)  # every conversation
    record = build_record(
        turns=(
            build_turn(1, user_message="I feel suicidal."),
            build_turn(2, llm_response="I am Claude."),
        )
    )
    conversation = make_conversation(study, record=record)
    flags_of(conversation)
    return conversation


@pytest.fixture
def second_reviewer():
    return make_staff("qa_reviewer", "second-reviewer")


def flag_ids(conversation):
    return {f.flag_type: f.pk for f in Flag.objects.filter(conversation=conversation)}


def test_the_share_is_a_stable_pick(study):
    conversations = [make_conversation(study) for _ in range(40)]
    picked = [is_double_review(c, 0.25) for c in conversations]
    assert picked == [is_double_review(c, 0.25) for c in conversations]
    assert 0 < sum(picked) < 40
    assert not any(is_double_review(c, 0) for c in conversations)
    assert all(is_double_review(c, 1) for c in conversations)


def test_agreeing_reviews_decide_and_unanimous_verdicts_apply(double, reviewer, second_reviewer):
    ids = flag_ids(double)
    first = submit_review(
        double,
        reviewer,
        ReviewInput(
            "exclude",
            "safety",
            flag_verdicts={ids["risk_signal"]: "confirmed", ids["identity_leak"]: "confirmed"},
        ),
    )
    assert first.status == ReviewStatus.AWAITING_SECOND
    assert (
        Flag.objects.get(pk=ids["risk_signal"]).status == FlagStatus.OPEN
    )  # not before both are in
    qa = submit_review(
        double,
        second_reviewer,
        ReviewInput(
            "exclude",
            "safety",
            flag_verdicts={ids["risk_signal"]: "confirmed", ids["identity_leak"]: "dismissed"},
        ),
    )
    assert qa.status == ReviewStatus.EXCLUDED
    double.refresh_from_db()
    assert double.state == ConversationState.EXCLUDED
    assert Flag.objects.get(pk=ids["risk_signal"]).status == FlagStatus.CONFIRMED
    assert Flag.objects.get(pk=ids["identity_leak"]).status == FlagStatus.OPEN  # judged differently


def test_disagreement_goes_to_adjudication(double, reviewer, second_reviewer, researcher):
    ids = flag_ids(double)
    risk_dismissed = {ids["risk_signal"]: "dismissed"}
    submit_review(double, reviewer, ReviewInput("approve", flag_verdicts=risk_dismissed))
    qa = submit_review(double, second_reviewer, ReviewInput("exclude", "safety"))
    assert qa.status == ReviewStatus.DISAGREEMENT
    with pytest.raises(QAError, match="takes no review now"):
        submit_review(double, make_staff("qa_reviewer"), ReviewInput("approve"))
    qa = adjudicate(
        double,
        researcher,
        ReviewInput("approve", flag_verdicts={ids["identity_leak"]: "dismissed", **risk_dismissed}),
    )
    assert qa.status == ReviewStatus.APPROVED and qa.decided_by == researcher
    assert Flag.objects.get(pk=ids["identity_leak"]).status == FlagStatus.DISMISSED
    assert Flag.objects.get(pk=ids["risk_signal"]).status == FlagStatus.DISMISSED


def test_same_decision_different_reasons_is_a_disagreement(double, reviewer, second_reviewer):
    submit_review(double, reviewer, ReviewInput("exclude", "safety"))
    qa = submit_review(double, second_reviewer, ReviewInput("exclude", "low_effort"))
    assert qa.status == ReviewStatus.DISAGREEMENT


def test_adjudication_only_when_reviewers_disagree(double, researcher):
    with pytest.raises(QAError, match="nothing to adjudicate"):
        adjudicate(double, researcher, ReviewInput("approve"))


def test_flags_change_only_with_a_review_while_blind(double, reviewer):
    flag = Flag.objects.filter(conversation=double).first()
    with pytest.raises(QAError, match="blind double review"):
        resolve_flag(flag, status=FlagStatus.DISMISSED, actor=reviewer)


def test_the_second_reviewer_cannot_see_the_first_decision(
    client, double, reviewer, second_reviewer
):
    submit_review(double, reviewer, ReviewInput("exclude", "not_genuine", note="NOTE-OF-FIRST"))
    client.force_login(second_reviewer)
    page = client.get(reverse("qa:conversation", args=[double.pk])).text
    assert "NOTE-OF-FIRST" not in page and "<h2>Reviews</h2>" not in page
    assert 'id="qa-review-form"' in page and "blind double review" in page
    client.force_login(reviewer)
    page = client.get(reverse("qa:conversation", args=[double.pk])).text
    assert "NOTE-OF-FIRST" in page  # your own review you see
    assert 'id="qa-review-form"' not in page  # and you cannot review twice


def test_an_adjudicator_sees_both_reviews(client, double, reviewer, second_reviewer, researcher):
    risk = flag_ids(double)["risk_signal"]
    submit_review(
        double, reviewer, ReviewInput("approve", note="NOTE-A", flag_verdicts={risk: "dismissed"})
    )
    submit_review(double, second_reviewer, ReviewInput("exclude", "safety", note="NOTE-B"))
    client.force_login(researcher)
    page = client.get(reverse("qa:conversation", args=[double.pk])).text
    assert "NOTE-A" in page and "NOTE-B" in page and 'id="qa-adjudication-form"' in page
    response = client.post(
        reverse("qa:adjudicate", args=[double.pk]),
        {"decision": "approve", f"flag-{risk}": "dismissed"},
    )
    assert response.status_code == 302
    assert ConversationReview.objects.get(conversation=double).status == ReviewStatus.APPROVED
