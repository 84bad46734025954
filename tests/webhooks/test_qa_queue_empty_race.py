"""Two reviewers deciding a study's last two conversations at the same moment: the queue is
found empty once (the study's row is locked for the check), so one event is sent."""

import threading

import pytest

from annotations.qa.models import StudyQASettings
from annotations.qa.services.reviews import ReviewInput, submit_review
from tests.factories import make_conversation, make_staff
from tests.threads import in_a_thread
from webhooks.event_types import EventType
from webhooks.models import WebhookEvent

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_last_two_decisions_at_once_send_one_event(lab, subscribe, sent_tasks):
    study = lab[0]
    StudyQASettings.objects.create(study=study, double_review_share=0)
    conversations = [make_conversation(study), make_conversation(study)]
    reviewers = [make_staff("qa_reviewer", studies={study: "qa_reviewer"}) for _ in range(2)]
    subscribe(reviewers[0], [study], [EventType.QA_QUEUE_EMPTY])
    barrier = threading.Barrier(2)
    errors = []

    def decide(conversation, reviewer) -> None:
        barrier.wait()
        try:
            submit_review(conversation, reviewer, ReviewInput("approve"))
        except Exception as error:  # reported below, not lost in the thread
            errors.append(error)

    threads = [
        in_a_thread(lambda c=c, r=r: decide(c, r))
        for c, r in zip(conversations, reviewers, strict=True)
    ]
    for thread in threads:
        thread.join()
    assert errors == []
    assert WebhookEvent.objects.filter(event_type="qa_queue.empty").count() == 1
    assert len(sent_tasks["webhooks.deliver"]) == 1
