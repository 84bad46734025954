"""The agreement page: per study and per reviewer pair, disagreements listed for adjudication."""

import pytest
from django.urls import reverse

from annotations.qa.agreement import agreement_report
from annotations.qa.models import Flag, StudyQASettings
from annotations.qa.services.reviews import ReviewInput, submit_review
from tests.factories import build_record, build_turn, make_conversation, make_staff
from tests.qa.conftest import flags_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def reviewed(study):
    StudyQASettings.objects.create(study=study, double_review_share=1)
    ann, bob, cy = (make_staff("qa_reviewer", name) for name in ("ann", "bob", "cy"))

    # Three conversations with two flags each (a risk phrase and an identity leak).
    def record():
        turn = build_turn(1, user_message="I feel suicidal", llm_response="As Claude, I care.")
        return build_record(turns=(turn,))

    plan = [  # (first, second, verdicts of first, verdicts of second) per conversation
        (ann, bob, ("confirmed", "confirmed"), ("confirmed", "dismissed")),
        (bob, ann, ("confirmed", "dismissed"), ("confirmed", "dismissed")),
        (ann, cy, ("dismissed", "confirmed"), ("dismissed", "confirmed")),
    ]
    conversations = []
    for first, second, v1, v2 in plan:
        conversation = make_conversation(study, record=record())
        flags_of(conversation)
        risk, leak = (
            Flag.objects.get(conversation=conversation, flag_type=t).pk
            for t in ("risk_signal", "identity_leak")
        )
        submit_review(
            conversation, first, ReviewInput("approve", flag_verdicts={risk: v1[0], leak: v1[1]})
        )
        submit_review(
            conversation, second, ReviewInput("approve", flag_verdicts={risk: v2[0], leak: v2[1]})
        )
        conversations.append(conversation)
    return conversations


def test_alpha_on_flags_per_study_and_pair(study, reviewed):
    report = agreement_report(study)
    summary = report.summary()
    # Units (risk, leak) per conversation: (c,c) (c,d) | (c,c) (d,d) | (d,d) (c,c).
    # Each agreeing unit adds 2 to its diagonal, the split unit 1 to o_cd and 1 to o_dc:
    # o_cc = 3*2 = 6, o_dd = 2*2 = 4, o_cd = o_dc = 1; n_c = 7, n_d = 5, n = 12.
    # alpha = 1 - (n-1) * (o_cd + o_dc) / (2 * n_c * n_d) = 1 - 11 * 2 / 70 = 48/70 = 0.6857...
    assert summary["flag_units"] == 6
    assert summary["flag_alpha"] == pytest.approx(48 / 70)
    assert summary["decision_kappa"] is None  # everyone approved everything: kappa undefined
    pairs = {p.reviewers: p for p in report.by_reviewers}
    assert set(pairs) == {("ann", "bob"), ("ann", "cy")}
    assert pairs[("ann", "cy")].flag_alpha == pytest.approx(1.0)
    assert pairs[("ann", "bob")].conversations == 2
    assert [p.first.conversation_id for p in report.disagreements] == [reviewed[0].pk]


def test_the_page_lists_the_disagreements(client, researcher, study, reviewed):
    client.force_login(researcher)
    page = client.get(reverse("qa:agreement", args=[study.slug])).text
    assert "ann &amp; bob" in page and "0.686" in page
    assert reverse("qa:conversation", args=[reviewed[0].pk]) in page
