"""A worker that is gone holds units no message will ever bring back (Redis returns an
unacknowledged message only after an hour): every live worker's periodic sweep puts them back
in the queue and runs them, even when no other work is left to trigger it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from annotations.models import AuditEntry
from evaluation.models import EvaluationRun, EvaluationUnit
from evaluation.services.creation import create_run, start_run
from evaluation.services.units import claim_unit
from tests.evaluation.conftest import wait_until_completed
from tests.worker_process import celery_worker

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_a_live_worker_takes_over_units_of_a_dead_one(celery_on_redis, run_request, demo_models):
    run = create_run(
        run_request(models=demo_models[:1], subsample="sample3"), actor_label="test", inline=True
    )
    start_run(run.pk)
    for unit in run.units.all():  # all claimed by a worker that then vanished
        claim_unit(unit.pk, worker="ghost@gone")
    EvaluationUnit.objects.filter(run=run).update(lease_until=timezone.now() - timedelta(seconds=1))
    EvaluationRun.objects.filter(pk=run.pk).update(inline=False)  # now the workers' business

    with celery_worker({**celery_on_redis, "ATTUNE_TEST_UNIT_LEASE_S": "4"}, name="sweeper"):
        wait_until_completed(run.pk, 90, "the sweeping worker to run the abandoned units")
    workers = set(EvaluationUnit.objects.filter(run=run).values_list("worker", flat=True))
    assert {w.split("@")[0] for w in workers} == {"sweeper"}
    assert set(EvaluationUnit.objects.filter(run=run).values_list("attempts", flat=True)) == {2}
    assert AuditEntry.objects.filter(action="evaluation.unit.lapsed").count() == 3
