"""A bonus batch interrupted at each point is finished without paying twice: killed after the
pay call reached Prolific (reconciled: no second pay), killed after setting up a bulk bonus
but before its id was stored (a new one is set up; the orphan is never paid), a pay call that
answers 500 without paying (paid once on the next run), and a pay whose outcome is unclear is
not repeated before Prolific has had time to show it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from annotations.models import BonusBatch, BonusState
from annotations.prolific import bonuses, review
from annotations.prolific.sync import sync_study
from attune_collect.prolific.client import ProlificClient
from tests.prolific.conftest import arrive, complete

pytestmark = pytest.mark.django_db
NOW = timedelta(0)


class Killed(BaseException):
    """A worker killed mid-task: no handler of the service runs."""


@pytest.fixture
def batch(linked_study, prolific_server, researcher):
    link = linked_study.prolific
    for _ in range(2):
        complete(arrive(linked_study, prolific_server), prolific_server)
    sync_study(link)
    review.intend_approvals(link, actor=researcher)
    review.send_decisions(link)
    total = sum(row.amount_cents for row in bonuses.bonus_table(link))
    return bonuses.intend_bonuses(link, actor=researcher, expected_total_cents=total)


def lapse_claim(batch: BonusBatch) -> None:
    BonusBatch.objects.filter(pk=batch.pk).update(claimed_until=None)


def test_killed_after_paying(batch, linked_study, prolific_server, monkeypatch):
    real_pay = ProlificClient.pay_bulk_bonus

    def pay_then_die(self, bulk_id):
        real_pay(self, bulk_id)
        raise Killed

    monkeypatch.setattr(ProlificClient, "pay_bulk_bonus", pay_then_die)
    with pytest.raises(Killed):
        bonuses.pay_bonuses(linked_study.prolific, settle=NOW)
    monkeypatch.setattr(ProlificClient, "pay_bulk_bonus", real_pay)
    lapse_claim(batch)
    assert bonuses.pay_bonuses(linked_study.prolific, settle=NOW).reconciled == 1
    assert list(prolific_server.paid_bulk_bonuses().values()) == [1]
    assert len(prolific_server.calls_of("pay")) == 1


def test_killed_before_the_bulk_id_was_stored(batch, linked_study, prolific_server, monkeypatch):
    real_create = ProlificClient.create_bulk_bonus

    def create_then_die(self, study_id, lines):
        real_create(self, study_id, lines)
        raise Killed

    monkeypatch.setattr(ProlificClient, "create_bulk_bonus", create_then_die)
    with pytest.raises(Killed):
        bonuses.pay_bonuses(linked_study.prolific, settle=NOW)
    monkeypatch.setattr(ProlificClient, "create_bulk_bonus", real_create)
    batch.refresh_from_db()
    assert batch.state == BonusState.INTENDED and not batch.bulk_id
    lapse_claim(batch)
    assert bonuses.pay_bonuses(linked_study.prolific, settle=NOW).paid == 1
    batch.refresh_from_db()
    assert len(prolific_server.calls_of("create_bonus")) == 2
    assert prolific_server.paid_bulk_bonuses() == {batch.bulk_id: 1}  # the orphan: never paid


def test_a_500_that_paid_nothing_is_paid_once_later(batch, linked_study, prolific_server):
    prolific_server.faults.add("pay", "server_error")
    first = bonuses.pay_bonuses(linked_study.prolific, settle=NOW)
    assert first.failed == 1 and not prolific_server.paid_bulk_bonuses()
    assert bonuses.pay_bonuses(linked_study.prolific, settle=NOW).paid == 1
    assert list(prolific_server.paid_bulk_bonuses().values()) == [1]


def test_an_unclear_pay_waits_to_settle(batch, linked_study, prolific_server):
    prolific_server.faults.add("pay", "cut")  # nothing paid, but the client cannot know
    bonuses.pay_bonuses(linked_study.prolific)  # the default settle window: minutes
    again = bonuses.pay_bonuses(linked_study.prolific)
    assert again.waiting == 1 and len(prolific_server.calls_of("pay")) == 1
    batch.refresh_from_db()
    assert batch.state == BonusState.PAYING
