"""A run whose start message was lost (the broker away as the run was created, or a worker
killed holding the message until the broker's visibility timeout) does not sit "queued"
forever with no way to resume it: the workers' sweep starts it once the unclaimed bound has
passed, fanning its units out once however many workers sweep. A young run, and a run the
command line runs inline, are left alone."""

from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone

from annotations.models import AuditEntry
from attune_collect.sweep import steps
from evaluation import dispatch
from evaluation.models import EvaluationRun, RunStatus
from evaluation.services.creation import create_run

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch, settings) -> list[int]:
    """The units the sweep fans out; the run's own start message is lost."""
    settings.ATTUNE = replace(settings.ATTUNE, unclaimed_requeue_s=60)
    units: list[int] = []
    monkeypatch.setattr(dispatch, "enqueue_start", lambda run: None)
    monkeypatch.setattr(dispatch, "enqueue_units", lambda run, ids, countdown=0: units.extend(ids))
    return units


def sweep() -> None:
    """Every step of a worker's sweep (``attune_collect.sweep.sweep`` without its closing of
    the connection, which the test's transaction needs)."""
    for registered in steps():
        step = registered.step
        step()


def _created(run: EvaluationRun, ago: timedelta) -> None:
    EvaluationRun.objects.filter(pk=run.pk).update(created_at=timezone.now() - ago)


def test_the_sweep_starts_a_run_left_queued(run_request, sent):
    run = create_run(run_request(), actor_label="test")
    _created(run, timedelta(minutes=5))
    sweep()
    run.refresh_from_db()
    assert run.status == RunStatus.RUNNING and run.started_at is not None
    assert sorted(sent) == sorted(run.units.values_list("pk", flat=True))
    assert AuditEntry.objects.get(action="evaluation.run.start").data["by"] == "sweep"
    sent.clear()
    sweep()  # started: nothing more to do for it here
    assert sent == []


@pytest.mark.parametrize("inline", [False, True])
def test_a_young_or_inline_run_is_left_alone(run_request, sent, inline):
    run = create_run(run_request(), actor_label="test")
    if inline:
        EvaluationRun.objects.filter(pk=run.pk).update(inline=True)
        _created(run, timedelta(minutes=5))
    sweep()
    assert EvaluationRun.objects.get(pk=run.pk).status == RunStatus.QUEUED
    assert sent == []
