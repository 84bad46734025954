"""``qa_queue.empty``: sent by the final decision that leaves a study no conversation awaiting
review, and not before."""

import pytest

from annotations.qa.models import StudyQASettings
from annotations.qa.services.reviews import ReviewInput, submit_review
from tests.factories import make_conversation, make_staff
from webhooks.event_types import EventType

pytestmark = pytest.mark.django_db


def test_the_last_decision_sends_qa_queue_empty(
    lab, subscribe, receiver, run_deliveries, django_capture_on_commit_callbacks
):
    study = lab[0]
    StudyQASettings.objects.create(study=study, double_review_share=0)
    conversations = [make_conversation(study), make_conversation(study)]
    reviewer = make_staff("qa_reviewer", studies={study: "qa_reviewer"})
    subscribe(reviewer, [study], [EventType.QA_QUEUE_EMPTY])
    with django_capture_on_commit_callbacks(execute=True):
        submit_review(conversations[0], reviewer, ReviewInput("approve"))
    run_deliveries()
    assert receiver.received == []  # one left
    with django_capture_on_commit_callbacks(execute=True):
        submit_review(conversations[1], reviewer, ReviewInput("exclude", "low_effort", "short"))
    run_deliveries()
    (got,) = receiver.received
    assert got.verified and got.json["type"] == "qa_queue.empty"
    assert got.json["data"] == {"study_id": study.pk, "study_ids": [study.pk]}
