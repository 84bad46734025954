"""Create a run (with all its units) and start it: the run's first two state changes."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from annotations.audit_actions import AuditAction
from annotations.services.audit import record_audit
from attune_collect.dispatch import RESEND_BATCH, resend_bound
from evaluation import dispatch
from evaluation.models import EvaluationRun, EvaluationUnit, RunStatus, UnitStatus
from evaluation.services.configurations import configurations_record
from evaluation.services.money import money
from evaluation.services.planning import RunPlan, RunRequest, plan_run


@transaction.atomic
def create_run(
    request: RunRequest,
    *,
    actor: User | None = None,
    actor_label: str | None = None,
    inline: bool = False,
    plan: RunPlan | None = None,
) -> EvaluationRun:
    """Store the run and one unit per (model, conversation, mode); queue its start after commit.

    ``plan`` is the plan already shown to the user (it is deterministic, so passing it only
    saves the work of planning again). ``inline``: the calling process runs it (no Celery).
    """
    plan = plan or plan_run(request)
    release = request.release
    user = actor if actor is not None and actor.is_authenticated else None
    run = EvaluationRun.objects.create(
        release=release,
        release_hash=release.content_hash,
        modes=list(request.modes),
        panas_strategy=request.panas_strategy,
        subsample=request.subsample.strip(),
        prompt_set=request.prompt_set,
        prompt_version=plan.prompt_version,
        seed=request.seed,
        statistics_options={
            "holm_across_axes": request.holm_across_axes,
            "rank_outcome": request.rank_outcome,
        },
        configurations=configurations_record(request.models, request.judges),
        inline=inline,
        units_total=plan.units,
        estimated_calls=plan.calls,
        estimated_cost_usd=None
        if plan.estimate.cost_usd is None
        else money(plan.estimate.cost_usd),
        estimate=plan.estimate.to_json(),
        created_by=user,
        created_via=actor_label or ("admin" if user else "system"),
    )
    run.models_under_test.set(request.models)
    run.judges.set(request.judges)
    EvaluationUnit.objects.bulk_create(
        [
            EvaluationUnit(
                run=run,
                endpoint=endpoint,
                conversation_id=item.conversation.conversation_id,
                source_file=item.source_file,
                mode=mode,
            )
            for endpoint in request.models
            for mode in request.modes
            for item in plan.conversations
        ],
        batch_size=1000,
    )
    record_audit(
        AuditAction.EVALUATION_RUN_CREATE,
        target=run,
        actor=actor,
        actor_label=actor_label,
        data={
            "release": str(release),
            "release_hash": release.content_hash,
            "models": [e.alias for e in request.models],
            "judges": [e.alias for e in request.judges],
            "modes": list(request.modes),
            "units": plan.units,
            "estimated_calls": plan.calls,
            "estimated_cost_usd": plan.estimate.cost_usd,
            "inline": inline,
        },
    )
    dispatch.enqueue_start(run)
    return run


def start_run(run_id: int) -> EvaluationRun | None:
    """Queued -> running (once), then fan out every queued unit. Safe to repeat: a redelivered
    start sends the still-queued units again, and a unit runs once however often it is sent."""
    started = _mark_started(run_id)
    run = EvaluationRun.objects.filter(pk=run_id).first()
    if run is None or run.status != RunStatus.RUNNING:
        return run
    if started:
        record_audit(AuditAction.EVALUATION_RUN_START, target=run, actor_label="worker")
    _fan_out(run)
    return run


def _mark_started(run_id: int) -> bool:
    """Queued -> running, by a conditional update: True for the one caller that moved it."""
    return bool(
        EvaluationRun.objects.filter(pk=run_id, status=RunStatus.QUEUED).update(
            status=RunStatus.RUNNING, started_at=timezone.now()
        )
    )


def _fan_out(run: EvaluationRun) -> None:
    unit_ids = list(run.units.filter(status=UnitStatus.QUEUED).values_list("pk", flat=True))
    dispatch.enqueue_units(run, unit_ids)


def start_runs_left_queued(now: datetime | None = None) -> list[int]:
    """Start the runs a worker should have started: queued (not inline) past the unclaimed
    bound after their creation, so their start message was lost (a broker error as the run
    was created) or is held by a killed worker until the broker's visibility timeout. Started
    here as the message would have; of several workers' sweeps, only the one whose conditional
    update moves a run to running fans its units out. Returns the runs started."""
    now = now or timezone.now()
    bound = resend_bound()
    left = EvaluationRun.objects.filter(
        status=RunStatus.QUEUED, inline=False, created_at__lt=now - bound
    ).order_by("created_at")[:RESEND_BATCH]
    started = []
    for run in left:
        if _mark_started(run.pk):
            record_audit(
                AuditAction.EVALUATION_RUN_START,
                target=run,
                actor_label="worker",
                data={"by": "sweep", "why": "its start message was lost"},
            )
            _fan_out(run)
            started.append(run.pk)
    return started
