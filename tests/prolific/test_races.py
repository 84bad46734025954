"""Two tabs clicking at once, two workers settling at once: barriers line them up at the
decisive step; each approval and each bulk bonus still reaches Prolific once."""

from __future__ import annotations

import threading

import pytest

from annotations.models import BonusBatch, ReviewDecision
from annotations.prolific import bonuses, review
from annotations.prolific.sync import sync_study
from tests.prolific.conftest import arrive, complete
from tests.threads import in_a_thread

pytestmark = pytest.mark.django_db(transaction=True)


def both(body) -> list[object]:
    """Run ``body`` in two threads released together by a barrier; their results or errors."""
    barrier = threading.Barrier(2, timeout=10)
    results: list[object] = []

    def run() -> None:
        barrier.wait()
        try:
            results.append(body())
        except Exception as error:  # the losing tab's refusal is a result here
            results.append(error)

    threads = [in_a_thread(run) for _ in range(2)]
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.fixture
def approved(linked_study, prolific_server, researcher):
    link = linked_study.prolific
    for _ in range(3):
        complete(arrive(linked_study, prolific_server), prolific_server)
    sync_study(link)
    return link


def test_two_tabs_approving_send_each_approval_once(approved, prolific_server, researcher):
    made = both(lambda: review.intend_approvals(approved, actor=researcher))
    assert sum(made) == 3  # type: ignore[arg-type]
    assert ReviewDecision.objects.count() == 3
    both(lambda: review.send_decisions(approved))
    paths = [call.path for call in prolific_server.calls_of("transition")]
    assert len(paths) == 3 and len(set(paths)) == 3


def test_two_tabs_paying_pay_once(approved, prolific_server, researcher, monkeypatch):
    review.intend_approvals(approved, actor=researcher)
    review.send_decisions(approved)
    total = sum(row.amount_cents for row in bonuses.bonus_table(approved))
    outcomes = both(
        lambda: bonuses.intend_bonuses(approved, actor=researcher, expected_total_cents=total)
    )
    assert sum(isinstance(o, BonusBatch) for o in outcomes) == 1
    assert sum(isinstance(o, review.ProlificRefused) for o in outcomes) == 1

    # Two workers reach the claim together: one claims, the other leaves the batch alone.
    gate = threading.Barrier(2, timeout=10)
    real_claim = bonuses._claim

    def claim_together(batch_id, now):
        gate.wait()
        return real_claim(batch_id, now)

    monkeypatch.setattr(bonuses, "_claim", claim_together)
    both(lambda: bonuses.pay_bonuses(approved))
    assert len(prolific_server.calls_of("create_bonus")) == 1
    assert len(prolific_server.calls_of("pay")) == 1
    assert list(prolific_server.paid_bulk_bonuses().values()) == [1]
