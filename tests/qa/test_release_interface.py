"""What the release exporter asks of QA: approved conversations, exclusion counts, agreement."""

import inspect

import pytest

from annotations.models import Conversation
from annotations.qa import corrections, selectors
from annotations.qa.models import StudyQASettings
from annotations.qa.services.reviews import ReviewInput, adjudicate, submit_review
from tests.factories import make_conversation, make_staff

pytestmark = pytest.mark.django_db


def test_the_signatures_are_the_contract():
    assert list(inspect.signature(selectors.approved_conversations).parameters) == ["queryset"]
    assert list(inspect.signature(selectors.exclusion_reasons).parameters) == ["queryset"]
    assert list(inspect.signature(selectors.agreement_summary).parameters) == ["study"]
    assert list(inspect.signature(corrections.apply_corrections).parameters) == [
        "record",
        "conversation_id",
    ]


def test_approved_and_excluded(study, reviewer):
    StudyQASettings.objects.create(study=study, double_review_share=0)
    approved, excluded, other_excluded, unreviewed = (make_conversation(study) for _ in range(4))
    submit_review(approved, reviewer, ReviewInput("approve"))
    submit_review(excluded, reviewer, ReviewInput("exclude", "low_effort"))
    submit_review(other_excluded, reviewer, ReviewInput("exclude", "failed_attention_check"))
    everything = Conversation.objects.filter(study=study)
    assert list(selectors.approved_conversations(everything)) == [approved]
    assert selectors.exclusion_reasons(everything) == {"failed_attention_check": 1, "low_effort": 1}
    assert list(selectors.exclusion_reasons(everything)) == [
        "failed_attention_check",
        "low_effort",
    ]  # list order
    assert unreviewed not in selectors.approved_conversations(everything)


def test_agreement_summary(study, researcher):
    StudyQASettings.objects.create(study=study, double_review_share=1)
    assert selectors.agreement_summary(study) == {}  # nothing double-reviewed yet
    ann, bob = make_staff("qa_reviewer", "ann"), make_staff("qa_reviewer", "bob")
    decisions = [
        ("approve", "approve"),
        ("approve", "approve"),
        ("exclude", "exclude"),
        ("approve", "exclude"),
    ]
    for first, second in decisions:
        conversation = make_conversation(study)
        submit_review(
            conversation, ann, ReviewInput(first, "low_effort" if first == "exclude" else "")
        )
        qa = submit_review(
            conversation, bob, ReviewInput(second, "low_effort" if second == "exclude" else "")
        )
        if qa.status == "disagreement":
            adjudicate(conversation, researcher, ReviewInput("approve"))
    summary = selectors.agreement_summary(study)
    # p_o = 3/4; ann: approve 3, exclude 1; bob: approve 2, exclude 2; p_e = (3*2 + 1*2)/16 = 0.5
    # kappa = (0.75 - 0.5) / 0.5 = 0.5
    assert summary["decision_kappa"] == pytest.approx(0.5)
    assert summary["decision_agreement"] == pytest.approx(0.75)
    assert summary["double_reviewed_conversations"] == 4
    assert summary["disagreements"] == 1 and summary["adjudicated"] == 1
    assert summary["flag_alpha"] is None and summary["flag_units"] == 0
    assert summary["reviewer_pairs"] == 1
