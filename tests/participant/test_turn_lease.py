"""One stream owns a turn: its lease is renewed while it streams (Retry-After waits included),
a retry is refused while the owner lives, and a reply that reached the participant is always
stored, whichever stream brings it."""

import asyncio
from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone

from annotations.models import Participant, Turn, TurnStatus
from annotations.participant_api import streaming
from annotations.services import chat
from annotations.services.errors import FlowError
from tests.participant.conftest import fake_completion

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(participant_client):
    """The first stream of turn 1 (claim 1), as the streaming view's phase 1 leaves it."""
    client = participant_client()
    client.onboard()
    participant = Participant.objects.get(prolific_pid=client.pid)
    return participant, chat.accept_message(participant, "Are you there?", "key-lease-0001")


def _age(turn_id: int, seconds: float) -> None:
    """Move the turn's start into the past, as a stream that has been waiting that long."""
    Turn.objects.filter(pk=turn_id).update(started_at=timezone.now() - timedelta(seconds=seconds))


def _lapse(turn_id: int) -> None:
    Turn.objects.filter(pk=turn_id).update(lease_expires_at=timezone.now() - timedelta(seconds=1))


def test_a_retry_is_refused_while_the_owner_renews_its_lease(owner):
    participant, plan = owner
    # 10 s timeout x 3 attempts + 30 s was the old bound; a 429 with Retry-After 45 twice
    # keeps a live stream far past it.
    _age(plan.turn_id, 600)  # the owner's lease is fresh: it was renewed a moment ago
    with pytest.raises(FlowError) as refused:
        chat.retry_turn(participant, 1)
    assert refused.value.code == "turn_in_progress"
    assert chat.renew_leases({plan.turn_id: plan.claim}) == {plan.turn_id}


def test_a_lapsed_lease_lets_a_retry_take_over(owner):
    participant, plan = owner
    _lapse(plan.turn_id)
    retry = chat.retry_turn(participant, 1)
    assert retry.claim == plan.claim + 1
    # the old stream no longer owns it
    assert chat.renew_leases({plan.turn_id: plan.claim}) == set()


def test_the_old_owners_failure_does_not_fail_the_new_owners_turn(owner):
    participant, plan = owner
    _lapse(plan.turn_id)
    retry = chat.retry_turn(participant, 1)
    chat.record_failure(plan.turn_id, "timed out", claim=plan.claim, kind="timeout")
    assert Turn.objects.get(pk=plan.turn_id).status == TurnStatus.STREAMING
    assert chat.record_reply(retry.turn_id, fake_completion("Here I am.")) is not None
    turn = Turn.objects.get(pk=plan.turn_id)
    assert (turn.status, turn.model_reply) == (TurnStatus.DONE, "Here I am.")


def test_a_reply_that_reached_the_participant_is_stored_even_after_a_failure(owner):
    participant, plan = owner
    chat.record_failure(plan.turn_id, "cut", claim=plan.claim, kind="stream_interrupted")
    # The reply had in fact reached the participant (the failure was recorded by a stream that
    # lost its turn in a race): it is stored, not thrown away.
    assert chat.record_reply(plan.turn_id, fake_completion("Seen reply.")) is not None
    turn = Turn.objects.get(pk=plan.turn_id)
    assert (turn.status, turn.model_reply, turn.error) == (TurnStatus.DONE, "Seen reply.", "")


class _SilentGateway:
    """An upstream that answers after a long silence (a Retry-After wait inside the gateway)."""

    def __init__(self, wait_s: float) -> None:
        self.wait_s = wait_s

    def needs_litellm(self, endpoint) -> bool:
        return False

    async def stream(self, endpoint, messages, **options):
        from attune_collect.llm import StreamDone, TokenDelta

        await asyncio.sleep(self.wait_s)
        yield TokenDelta("Here I am.")
        yield StreamDone(fake_completion("Here I am."))


@pytest.mark.django_db(transaction=True)
def test_the_stream_renews_its_lease_through_a_silent_wait(owner, settings, monkeypatch):
    settings.ATTUNE = replace(settings.ATTUNE, chat_turn_lease_s=0.6)
    participant, plan = owner
    Turn.objects.filter(pk=plan.turn_id).update(
        lease_expires_at=timezone.now() + timedelta(seconds=0.6)
    )
    monkeypatch.setattr(streaming, "default_gateway", lambda: _SilentGateway(2.0))
    refusals: list[str] = []

    async def scenario() -> list[bytes]:
        stream = asyncio.create_task(_collect(streaming.stream_reply(plan)))
        await asyncio.sleep(1.5)  # well past the first lease, before the reply
        try:
            await asyncio.to_thread(_retry_in_thread, participant)
        except FlowError as error:
            refusals.append(error.code)
        return await stream

    events = asyncio.run(scenario())
    assert refusals == ["turn_in_progress"]
    assert b"event: done" in b"".join(events)
    turn = Turn.objects.get(pk=plan.turn_id)
    assert (turn.status, turn.model_reply) == (TurnStatus.DONE, "Here I am.")


async def _collect(iterator) -> list[bytes]:
    return [chunk async for chunk in iterator]


def _retry_in_thread(participant):
    from django.db import connection

    try:
        return chat.retry_turn(participant, 1)
    finally:
        connection.close()
