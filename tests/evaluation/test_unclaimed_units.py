"""Queued units nobody claimed (their messages taken by a worker that was killed before it
started them) are sent again by the sweep once the run has not moved for the bound; a run that
moves is left alone, and a re-send is not repeated within the bound."""

from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone

from evaluation import dispatch
from evaluation.models import EvaluationRun
from evaluation.services.creation import create_run, start_run
from evaluation.services.units import claim_unit, sweep_running_runs

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch) -> list[int]:
    units: list[int] = []
    monkeypatch.setattr(dispatch, "enqueue_units", lambda run, ids, countdown=0: units.extend(ids))
    return units


@pytest.fixture
def stale_run(run_request, settings):
    settings.ATTUNE = replace(settings.ATTUNE, unclaimed_requeue_s=60)
    run = create_run(run_request(), actor_label="test")
    start_run(run.pk)
    EvaluationRun.objects.filter(pk=run.pk).update(started_at=timezone.now() - timedelta(minutes=5))
    return run


def test_the_queued_units_of_a_run_that_stopped_moving_are_sent_again(stale_run, sent):
    sweep_running_runs()
    assert sorted(sent) == sorted(stale_run.units.values_list("pk", flat=True))
    sent.clear()
    sweep_running_runs()  # within the bound: not again
    assert sent == []


def test_a_run_that_moves_is_left_alone(stale_run, sent):
    claim_unit(stale_run.units.first().pk, worker="w1@host")  # a live lease, just started
    sweep_running_runs()
    assert sent == []


def test_a_young_run_is_left_alone(run_request, sent, settings):
    settings.ATTUNE = replace(settings.ATTUNE, unclaimed_requeue_s=60)
    run = create_run(run_request(), actor_label="test")
    start_run(run.pk)
    sent.clear()  # what starting the run sent
    sweep_running_runs()
    assert sent == []
