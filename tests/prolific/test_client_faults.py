"""The client against the local server's faults: 429 (honouring Retry-After), 500, a timeout
and a cut connection are retried for calls that may be repeated; a pay call is never repeated
after an unclear outcome (it raises UncertainOutcome: the caller reconciles)."""

from __future__ import annotations

import pytest

from attune_collect.llm.retry import RetryPolicy
from attune_collect.prolific.client import (
    ClientPolicy,
    ProlificClient,
    ProlificError,
    UncertainOutcome,
)
from attune_collect.prolific.testing.prolific_server import run_prolific_server

TOKEN = "secret-token-abc"
STUDY = "study-1"


@pytest.fixture
def server():
    with run_prolific_server(TOKEN, page_size=2) as running:
        for index in range(5):
            running.add_submission(STUDY, participant_id=f"{index:024x}", status="AWAITING REVIEW")
        yield running


def client(server, waits=None, attempts=4):
    def sleep(seconds):
        if waits is not None:
            waits.append(seconds)

    return ProlificClient(
        TOKEN,
        base_url=server.base_url,
        policy=ClientPolicy(max_attempts=attempts, timeout_s=0.3, retry=RetryPolicy(0.001)),
        sleep=sleep,
    )


def test_listing_retries_each_fault_and_follows_pages(server):
    waits: list[float] = []
    server.faults.add("list", "rate_limit", retry_after=7).add("list", "server_error")
    server.faults.add("list", "cut").add("list", "stall")
    submissions = list(client(server, waits, attempts=5).submissions(STUDY))
    server.release_stalls()
    assert len({s.id for s in submissions}) == 5
    assert waits[0] == 7  # Retry-After honoured (within the policy's bound)
    assert [c.status for c in server.calls_of("list")][:3] == [429, 500, 0]


def test_a_pay_call_with_an_unclear_outcome_is_not_repeated(server):
    bulk = client(server).create_bulk_bonus(STUDY, {f"{0:024x}": 125})
    server.faults.add("pay", "server_error_after")
    with pytest.raises(UncertainOutcome):
        client(server).pay_bulk_bonus(bulk.id)
    assert len(server.calls_of("pay")) == 1 and server.paid_bulk_bonuses() == {bulk.id: 1}


def test_a_pay_call_refused_with_429_is_sent_again(server):
    bulk = client(server).create_bulk_bonus(STUDY, {f"{0:024x}": 125})
    server.faults.add("pay", "rate_limit")
    client(server).pay_bulk_bonus(bulk.id)
    assert [c.status for c in server.calls_of("pay")] == [429, 202]
    assert server.paid_bulk_bonuses() == {bulk.id: 1}


def test_a_cut_transition_is_uncertain_and_says_nothing_of_the_token(server):
    submission = next(iter(client(server).submissions(STUDY)))
    server.faults.add("transition", "cut_after")
    with pytest.raises(UncertainOutcome) as raised:
        client(server).approve(submission.id)
    assert TOKEN not in str(raised.value) and TOKEN not in repr(client(server))
    assert len(server.calls_of("transition")) == 1


def test_a_wrong_token_fails_without_retrying(server):
    wrong = ProlificClient("nope", base_url=server.base_url, sleep=lambda s: None)
    with pytest.raises(ProlificError) as raised:
        list(wrong.submissions(STUDY))
    assert raised.value.status == 401 and len(server.calls) == 1


def test_a_rejection_needs_a_category_and_a_long_enough_message(server):
    submission = next(iter(client(server).submissions(STUDY)))
    with pytest.raises(ProlificError):
        client(server).reject(submission.id, message="too short", category="LOW_EFFORT")
    with pytest.raises(ProlificError):
        client(server).reject(submission.id, message="x" * 120, category="MADE_UP")
    assert not server.calls_of("transition")
