"""Who is approved: completed participants awaiting review on Prolific; under ``after_qa`` only
once QA approved their conversation. A rejection needs a category and a typed reason."""

from __future__ import annotations

import pytest

from annotations.models import Conversation, ProlificLink, ReviewDecision
from annotations.prolific import review
from annotations.prolific.sync import sync_study
from annotations.qa.models import ConversationReview, Decision, ReviewStatus
from tests.prolific.conftest import arrive, complete

pytestmark = pytest.mark.django_db


def test_after_qa_waits_for_the_qa_approval(linked_study, prolific_server):
    ProlificLink.objects.filter(study=linked_study).update(approve_rule="after_qa")
    link = ProlificLink.objects.get(study=linked_study)
    done, waiting = arrive(linked_study, prolific_server), arrive(linked_study, prolific_server)
    complete(done, prolific_server)
    arrive(linked_study, prolific_server)  # still chatting: never a candidate
    complete(waiting, prolific_server)
    sync_study(link)
    assert review.approval_candidates(link) == []
    conversation = Conversation.objects.get(participant=done.participant)
    ConversationReview.objects.update_or_create(
        conversation=conversation,
        defaults={"status": ReviewStatus.APPROVED, "final_decision": Decision.APPROVE},
    )
    assert [c.participant for c in review.approval_candidates(link)] == [done.participant]


def test_a_rejection_needs_a_typed_reason(linked_study, prolific_server, researcher):
    link = linked_study.prolific
    arrival = arrive(linked_study, prolific_server)
    complete(arrival, prolific_server)
    sync_study(link)
    for message, category in (("", "LOW_EFFORT"), ("x" * 150, "")):
        with pytest.raises(review.ProlificRefused):
            review.intend_rejection(
                link, arrival.participant, message=message, category=category, actor=researcher
            )
    reason = "Your answers to the annotation questions were the same for every turn. " * 2
    assert review.intend_rejection(
        link, arrival.participant, message=reason, category="LOW_EFFORT", actor=researcher
    )
    review.send_decisions(link)
    assert prolific_server.submission(arrival.submission_id)["status"] == "REJECTED"
    decision = ReviewDecision.objects.get()
    assert decision.state == "done" and decision.decided_by == researcher
    # Rejected after completing: the next sync frees the place (the conversation stays completed).
    sync_study(link)
    arrival.participant.refresh_from_db()
    assert arrival.participant.place_freed_reason == "REJECTED"
    assert Conversation.objects.get(participant=arrival.participant).state == "completed"
