"""A comprehension check passed only at the second attempt reaches QA (issue 37, item 6): its
own warning flag, with the questions the wrong attempt missed, on the conversation's page."""

from __future__ import annotations

import secrets

import pytest
from django.urls import reverse

from annotations.models import Conversation, ConversationState, StudyStatus
from annotations.qa.flags.base import ComprehensionAttempts, ConversationSnapshot, Thresholds
from annotations.qa.flags.comprehension_retry import detect
from annotations.services.comprehension import submit_comprehension
from annotations.services.participants import give_consent, start_participant
from tests.factories import COMPREHENSION_QUESTIONS as QUESTIONS
from tests.factories import RIGHT_ANSWERS as RIGHT
from tests.factories import WRONG_ANSWERS as WRONG
from tests.factories import make_endpoint, make_study
from tests.qa.conftest import flags_of

pytestmark = pytest.mark.django_db

FLAG = "comprehension_second_attempt"


@pytest.fixture
def checked_study():
    study = make_study(
        status=StudyStatus.RECRUITING,
        target_participants=5,
        consent_version="1",
        comprehension_questions=QUESTIONS,
    )
    study.model_pool.add(make_endpoint())
    return study


def _took_part(study, *attempts: dict[str, str]) -> Conversation:
    """A participant consents, answers the check with these attempts, and their conversation
    completes (the flags are computed on a completed conversation)."""
    started = start_participant(study.slug, prolific_pid=secrets.token_hex(12))
    give_consent(started.participant, consent_version="1", agree=True)
    for answers in attempts:
        submit_comprehension(started.participant, answers)
    conversation = Conversation.objects.get(participant=started.participant)
    Conversation.objects.filter(pk=conversation.pk).update(state=ConversationState.COMPLETED)
    return conversation


def test_a_pass_after_one_failure_raises_a_warning(checked_study):
    flag = flags_of(_took_part(checked_study, WRONG, RIGHT))[FLAG]
    assert flag.severity == "warning"
    assert flag.summary == "Passed the comprehension check on attempt 2"
    assert flag.evidence == {"failed_attempts": 1, "passed": True, "missed": [["task"]]}


def test_a_pass_at_the_first_attempt_raises_nothing(checked_study):
    assert FLAG not in flags_of(_took_part(checked_study, RIGHT))


def test_the_reviewer_sees_it_on_the_conversation_page(checked_study, reviewer_client):
    conversation = _took_part(checked_study, WRONG, RIGHT)
    flags_of(conversation)
    page = reviewer_client.get(reverse("qa:conversation", args=[conversation.pk])).text
    assert "Comprehension check needed a second attempt" in page
    assert "Passed the comprehension check on attempt 2" in page


def test_two_failures_say_so():
    snapshot = ConversationSnapshot(
        conversation_id=1, comprehension=ComprehensionAttempts(failed=2, passed=False)
    )
    detection = detect(snapshot, Thresholds())
    assert detection is not None and detection.summary == "Failed the comprehension check 2 times"
