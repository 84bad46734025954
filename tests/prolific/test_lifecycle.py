"""A whole study on the local Prolific server: 20 places, 3 returned and 2 timed out freeing
theirs so 20 conversations complete; sync twice (the second changes nothing); review approves
and pays bonuses; the server's record shows each approval and each bulk bonus paid once, also
when the pay call answers 500 and when a worker dies between setting up and paying a bonus."""

from __future__ import annotations

from datetime import timedelta

import pytest

from annotations.models import (
    AuditEntry,
    BonusBatch,
    BonusState,
    Conversation,
    ConversationState,
    Participant,
    ProlificSubmission,
)
from annotations.prolific import bonuses, review
from annotations.prolific.sync import sync_study
from annotations.services.errors import FlowError
from annotations.services.participants import is_full
from attune_collect.prolific.client import RETURNED, TIMED_OUT
from tests.prolific.conftest import arrive, complete

pytestmark = pytest.mark.django_db


class Killed(BaseException):
    """A worker killed mid-task: no handler of the service runs (not an Exception)."""


def snapshot():
    return (
        list(Participant.objects.order_by("pk").values_list("pk", "place_freed_at")),
        list(Conversation.objects.order_by("pk").values_list("pk", "state", "updated_at")),
        list(ProlificSubmission.objects.order_by("pk").values_list("pk", "status", "synced_at")),
        AuditEntry.objects.count(),
    )


def test_whole_lifecycle(linked_study, prolific_server, researcher, monkeypatch):
    study, server, link = linked_study, prolific_server, linked_study.prolific
    first = [arrive(study, server) for _ in range(20)]
    assert is_full(study)
    for arrival in first[:3]:
        server.set_status(arrival.submission_id, RETURNED)
    for arrival in first[3:5]:
        server.set_status(arrival.submission_id, TIMED_OUT)

    result = sync_study(link)
    assert result.places_freed == 5 and not is_full(study)
    abandoned = Conversation.objects.filter(state=ConversationState.ABANDONED)
    assert abandoned.count() == 5
    assert AuditEntry.objects.filter(action="prolific.conversation.abandon").count() == 5
    before = snapshot()
    again = sync_study(link)
    assert not again.made_changes and snapshot() == before

    # A participant whose place was freed comes back: a clear refusal, not a crash.
    with pytest.raises(FlowError) as refused:
        from annotations.services.participants import require_active

        require_active(Participant.objects.get(pk=first[0].participant.pk))
    assert refused.value.code == "place_released"

    late = [arrive(study, server) for _ in range(5)]
    assert is_full(study)
    finishers = first[5:] + late
    for arrival in finishers:
        complete(arrival, server)
    assert Conversation.objects.filter(state=ConversationState.COMPLETED).count() == 20
    sync_study(link)

    assert review.intend_approvals(link, actor=researcher) == 20
    assert review.intend_approvals(link, actor=researcher) == 0  # a second click: nothing new
    server.faults.add("transition", "server_error_after")  # approved, then 500: reconciled
    sent = review.send_decisions(link)
    assert sent.sent == 19 and sent.failed == 1
    assert review.send_decisions(link).reconciled == 1
    approvals = server.calls_of("transition")
    assert len(approvals) == 20 and len({call.path for call in approvals}) == 20

    table = bonuses.bonus_table(link)
    assert len(table) == 20 and {row.amount_cents for row in table} == {80}
    total = sum(row.amount_cents for row in table)
    batch = bonuses.intend_bonuses(link, actor=researcher, expected_total_cents=total)

    # The worker dies after setting up the bulk bonus, before paying it.
    real_pay = bonuses.ProlificClient.pay_bulk_bonus
    monkeypatch.setattr(
        bonuses.ProlificClient,
        "pay_bulk_bonus",
        lambda self, bulk_id: (_ for _ in ()).throw(Killed()),
    )
    with pytest.raises(Killed):
        bonuses.pay_bonuses(link, settle=timedelta(0))
    monkeypatch.setattr(bonuses.ProlificClient, "pay_bulk_bonus", real_pay)
    batch.refresh_from_db()
    assert batch.state == BonusState.PAYING and batch.bulk_id
    BonusBatch.objects.filter(pk=batch.pk).update(claimed_until=None)  # its claim lapsed

    # The next run reconciles (nothing landed), pays; the pay answers 500 after paying.
    server.faults.add("pay", "server_error_after")
    outcome = bonuses.pay_bonuses(link, settle=timedelta(0))
    assert outcome.reconciled == 1
    batch.refresh_from_db()
    assert batch.state == BonusState.PAID
    assert bonuses.pay_bonuses(link, settle=timedelta(0)).paid == 0
    assert server.paid_bulk_bonuses() == {batch.bulk_id: 1}
    for arrival in finishers:
        assert server.submission(arrival.submission_id)["bonus_payments"] == [80]
    paid = AuditEntry.objects.get(action="prolific.bonus.paid")
    assert paid.actor == researcher and paid.data["total_cents"] == 1600
