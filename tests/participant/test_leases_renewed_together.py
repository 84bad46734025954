"""The open streams of a web process renew their turns' leases together: one database step per
beat for all of them, not one per stream (annotations/participant_api/turn_lease.py)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from annotations.models import Participant, Turn
from annotations.participant_api import turn_lease
from annotations.services import chat

pytestmark = pytest.mark.django_db(transaction=True)

STREAMS = 5


@pytest.fixture
def plans(participant_client, settings):
    settings.ATTUNE = replace(settings.ATTUNE, chat_turn_lease_s=0.6)  # a beat every 0.2 s
    made = []
    for index in range(STREAMS):
        client = participant_client()
        client.onboard()
        participant = Participant.objects.get(prolific_pid=client.pid)
        made.append(chat.accept_message(participant, "Are you there?", f"key-beat-{index:04d}"))
    return made


@pytest.fixture
def beats(monkeypatch) -> list[dict[int, int]]:
    """Every call of the renewal, with the claims it renewed."""
    calls: list[dict[int, int]] = []
    renew = chat.renew_leases

    def recording(claims):
        calls.append(dict(claims))
        return renew(claims)

    monkeypatch.setattr(chat, "renew_leases", recording)
    return calls


def _leases(plans) -> dict[int, object]:
    return dict(
        Turn.objects.filter(pk__in=[p.turn_id for p in plans]).values_list("pk", "lease_expires_at")
    )


def test_every_open_stream_is_renewed_in_one_step_per_beat(plans, beats):
    before = _leases(plans)

    async def streams() -> None:
        async def one(plan) -> None:
            async with turn_lease.lease_kept(plan):
                await asyncio.sleep(1.0)  # five beats

        await asyncio.gather(*(one(plan) for plan in plans))

    asyncio.run(streams())

    assert 3 <= len(beats) <= 6  # about one per beat, where each stream alone made five
    assert all(beat == {p.turn_id: p.claim for p in plans} for beat in beats[:-1])
    after = _leases(plans)
    assert all(after[turn_id] > before[turn_id] for turn_id in before)
    assert turn_lease._keepers == {}  # the keeper ended with the last stream


def test_a_turn_taken_over_leaves_the_beat_and_the_others_stay(plans, beats):
    taken = plans[0]
    Turn.objects.filter(pk=taken.turn_id).update(stream_claim=taken.claim + 1)  # a retry's

    async def streams() -> None:
        async def one(plan) -> None:
            async with turn_lease.lease_kept(plan):
                await asyncio.sleep(0.7)

        await asyncio.gather(*(one(plan) for plan in plans))

    asyncio.run(streams())

    assert taken.turn_id in beats[0]
    assert all(taken.turn_id not in beat for beat in beats[1:])  # never asked for again
    assert all(len(beat) == STREAMS - 1 for beat in beats[1:])
    assert len(beats) >= 2
