"""A Prolific study against the local Prolific server: the link, the token in the environment,
participants who start and consent through the participant services."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.utils import timezone

from annotations.models import (
    Conversation,
    ConversationState,
    Participant,
    ProlificLink,
    Study,
    StudyStatus,
    Turn,
    TurnAnnotation,
    TurnStatus,
)
from annotations.prolific import bonuses, connection, review
from annotations.services.participants import give_consent, start_participant
from attune_collect.llm.retry import RetryPolicy
from attune_collect.prolific.client import AWAITING_REVIEW, ClientPolicy
from attune_collect.prolific.testing.prolific_server import (
    ProlificTestServer,
    run_prolific_server,
)
from tests.factories import make_endpoint, make_study

TOKEN_ENV = "PROLIFIC_TEST_TOKEN"
PROLIFIC_STUDY = "5f0000000000000000000001"


@pytest.fixture
def token(monkeypatch) -> str:
    value = "tok-" + secrets.token_hex(16)
    monkeypatch.setenv(TOKEN_ENV, value)
    return value


@pytest.fixture(autouse=True)
def _short_waits(monkeypatch) -> None:
    """Retries wait a millisecond: the suite counts calls, not seconds."""
    policy = ClientPolicy(
        max_attempts=4, timeout_s=2.0, retry=RetryPolicy(base_delay_s=0.001, max_retry_after_s=0.01)
    )
    monkeypatch.setattr(connection, "DEFAULT_POLICY", policy)


@pytest.fixture
def prolific_server(token) -> Iterator[ProlificTestServer]:
    with run_prolific_server(token) as server:
        server.add_study(PROLIFIC_STUDY)
        yield server


@pytest.fixture
def linked_study(prolific_server) -> Study:
    study = make_study(
        status=StudyStatus.RECRUITING,
        target_participants=20,
        consent_version="1",
        completion_code="DONE1",
        screenout_code="OUT1",
    )
    study.model_pool.add(make_endpoint())
    ProlificLink.objects.create(
        study=study,
        prolific_study_id=PROLIFIC_STUDY,
        token_env=TOKEN_ENV,
        api_base=prolific_server.base_url,
        approve_rule="on_completion",
        bonus_per_turn_cents=10,
        bonus_per_conversation_cents=50,
        bonus_cap_cents=500,
    )
    return study


@dataclass
class Arrival:
    participant: Participant
    submission_id: str


def arrive(study: Study, server: ProlificTestServer) -> Arrival:
    """A participant arrives from Prolific (a submission there), starts and consents."""
    pid = secrets.token_hex(12)
    submission_id = server.add_submission(PROLIFIC_STUDY, participant_id=pid)
    started = start_participant(
        study.slug, prolific_pid=pid, study_id=PROLIFIC_STUDY, session_id=submission_id
    )
    give_consent(started.participant, consent_version=study.consent_version, agree=True)
    started.participant.refresh_from_db()
    return Arrival(started.participant, submission_id)


def complete(arrival: Arrival, server: ProlificTestServer, *, turns: int = 3) -> None:
    """The participant's conversation completes with ``turns`` annotated turns, and they submit
    on Prolific (awaiting review)."""
    conversation = Conversation.objects.get(participant=arrival.participant)
    now = timezone.now()
    for number in range(1, turns + 1):
        turn = Turn.objects.create(
            conversation=conversation,
            number=number,
            user_message="hi",
            model_reply="hello",
            status=TurnStatus.DONE,
        )
        TurnAnnotation.objects.create(turn=turn, submitted_at=now)
    Conversation.objects.filter(pk=conversation.pk).update(
        state=ConversationState.COMPLETED, completed_at=now
    )
    server.set_status(arrival.submission_id, AWAITING_REVIEW)


def review_and_pay(link: ProlificLink, server: ProlificTestServer, actor) -> None:
    """Approve a synced study's submissions through a 500 that comes after the work (sent
    again), then pay the bonus table: every path of the review that handles the token."""
    review.intend_approvals(link, actor=actor)
    server.faults.add("transition", "server_error_after")
    review.send_decisions(link)
    review.send_decisions(link)
    rows = bonuses.bonus_table(link)
    bonuses.intend_bonuses(
        link, actor=actor, expected_total_cents=sum(r.amount_cents for r in rows)
    )
    bonuses.pay_bonuses(link)
