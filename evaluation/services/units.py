"""Executing one unit: claim it, run the engine, store the output, count, hand on.

Exactly one worker runs a unit at a time. A claim is a conditional update (queued -> running)
that also bumps ``attempts``; that number is the claim's token: only the claim that set it may
renew the lease or finish the unit, so a worker that lost its claim (its lease lapsed and
another worker took over) can never count a unit twice. A claimed unit holds a lease that the
running worker renews; a unit whose lease lapsed (its worker was killed or cut off) is put back
in the queue by ``sweep_run``, and its answered calls replay from the shared call cache.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from annotations.audit_actions import AuditAction
from annotations.models import AuditEntry
from annotations.services.audit import record_audit
from attune_collect.config import attune_config
from attune_collect.dispatch import resend_bound
from attune_collect.llm import EndpointConfig
from attunebench.asking import FatalModelError
from attunebench.executor import CallExecutor
from attunebench.reader import FormatError
from attunebench.records import Conversation
from attunebench.run_output import RunOutput, run_output_to_dict
from attunebench.runner import RunOptions, run_unit
from evaluation import background, dispatch
from evaluation.background import CallCounts, CallTally, Interrupted, run_with_heartbeat
from evaluation.call_cache import process_call_pool
from evaluation.engine import model_spec, read_conversation, run_options
from evaluation.models import EvaluationRun, EvaluationUnit, RunStatus, UnitStatus
from evaluation.services.money import money

logger = logging.getLogger(__name__)
LOST_WORKER = "the worker running it stopped renewing its lease (killed or cut off)"


@dataclass(frozen=True)
class Claim:
    unit: EvaluationUnit  # with run, run.release and endpoint loaded
    token: int  # the ``attempts`` value this claim set


@dataclass(frozen=True)
class UnitResult:
    unit_id: int
    outcome: str  # done | failed | retry | released | skipped


class _SetupError(Exception):
    """The unit cannot run at all (data or configuration): retrying would not help."""


@dataclass(frozen=True)
class _Job:
    conversation: Conversation
    spec: EndpointConfig
    options: RunOptions


# --- claim ------------------------------------------------------------------------------------


def claim_unit(unit_id: int, *, worker: str) -> Claim | None:
    """Take the unit if it is queued and its run is running; None if someone else has it."""
    row = EvaluationUnit.objects.filter(pk=unit_id).values("status", "run__status").first()
    if row is None or row["status"] != UnitStatus.QUEUED or row["run__status"] != RunStatus.RUNNING:
        return None
    now = timezone.now()
    # Only the unit's own columns in the filter: the database re-checks them on the locked row,
    # so of two concurrent claims exactly one matches.
    claimed = EvaluationUnit.objects.filter(pk=unit_id, status=UnitStatus.QUEUED).update(
        status=UnitStatus.RUNNING,
        worker=worker[:200],
        attempts=F("attempts") + 1,
        lease_until=now + timedelta(seconds=attune_config().evaluation_unit_lease_s),
        started_at=now,
        finished_at=None,
    )
    if not claimed:
        return None
    unit = EvaluationUnit.objects.select_related("run__release", "endpoint").get(pk=unit_id)
    return Claim(unit, unit.attempts)


def _mine(claim: Claim):
    return EvaluationUnit.objects.filter(
        pk=claim.unit.pk, status=UnitStatus.RUNNING, attempts=claim.token
    )


# --- execute ----------------------------------------------------------------------------------


def execute_unit(unit_id: int, *, worker: str) -> UnitResult:
    """Claim and run one unit, store its output, update the counters, hand on the run.

    Failed calls inside a unit are retried by running the unit again (its answered calls come
    from the cache); a unit that keeps failing, or cannot run at all, is marked failed.
    """
    claim = claim_unit(unit_id, worker=worker)
    if claim is None:
        return UnitResult(unit_id, "skipped")
    unit, run = claim.unit, claim.unit.run
    tally = CallTally()
    started = time.perf_counter()
    output: RunOutput | None = None
    try:
        job = _prepare(unit)
        output = run_with_heartbeat(
            lambda: _run(job, unit, tally),
            beat=lambda: _beat(claim, tally),
            interval=background.heartbeat_interval_s(),
        )
    except Interrupted:
        outcome = _release(claim, tally)
    except (_SetupError, FatalModelError) as exc:
        outcome = _finish(claim, tally, started, error=str(exc), give_up=True)
    except Exception as exc:
        logger.exception("evaluation unit %s failed", unit_id)
        outcome = _finish(claim, tally, started, error=f"{type(exc).__name__}: {exc}")
    else:
        errors = output.other.get("call_errors") or []
        error = f"{len(errors)} call(s) failed after retries: {errors[0]}" if errors else ""
        outcome = _finish(claim, tally, started, output=output, error=error)
    if outcome == "retry":
        dispatch.enqueue_units(run, [unit_id], countdown=retry_delay(unit.failures + 1))
    sweep_run(run.pk)
    return UnitResult(unit_id, outcome)


def _prepare(unit: EvaluationUnit) -> _Job:
    run = unit.run
    options = run_options(
        panas_strategy=run.panas_strategy, judges=run.judges.all(), prompt_set=run.prompt_set
    )
    if options.prompts.version_id != run.prompt_version:
        raise _SetupError(
            f"the prompt set {run.prompt_set} changed since the run started "
            f"({run.prompt_version} -> {options.prompts.version_id}); start a new run"
        )
    if run.release.content_hash != run.release_hash:
        raise _SetupError(f"{run.release} is not the release this run started on")
    try:
        conversation = read_conversation(run.release.folder, unit.source_file)
    except (OSError, FormatError) as exc:
        raise _SetupError(f"cannot read {unit.source_file} of {run.release}: {exc}") from exc
    return _Job(conversation, model_spec(unit.endpoint), options)


async def _run(job: _Job, unit: EvaluationUnit, tally: CallTally) -> RunOutput:
    # The process's pool, not one per unit: the tokens-per-minute window and the joining of
    # identical calls in flight hold across the units this worker process runs.
    executor = CallExecutor(pool=process_call_pool(), on_call=tally.on_call)
    return await run_unit(
        job.conversation,
        job.spec,
        unit.mode,
        job.options,
        executor,
        source_file=unit.source_file,
    )


def _beat(claim: Claim, tally: CallTally) -> bool:
    """Progress and lease; False when the unit should stop (run no longer running, claim lost)."""
    _add_calls(claim.unit.run_id, tally.drain())
    lease = timezone.now() + timedelta(seconds=attune_config().evaluation_unit_lease_s)
    if not _mine(claim).update(lease_until=lease):
        return False
    return EvaluationRun.objects.filter(pk=claim.unit.run_id, status=RunStatus.RUNNING).exists()


def _add_calls(run_id: int, counts: CallCounts) -> None:
    if counts:
        EvaluationRun.objects.filter(pk=run_id).update(
            calls_made=F("calls_made") + counts.made,
            calls_cached=F("calls_cached") + counts.cached,
            call_errors=F("call_errors") + counts.errors,
            cost_usd=F("cost_usd") + money(counts.cost_usd),
        )


def _release(claim: Claim, tally: CallTally) -> str:
    """Stopped from outside (cancelled run): back to the queue, for a resume to pick up."""
    _add_calls(claim.unit.run_id, tally.drain())
    _mine(claim).update(status=UnitStatus.QUEUED, lease_until=None)
    return "released"


def _finish(
    claim: Claim,
    tally: CallTally,
    started: float,
    *,
    output: RunOutput | None = None,
    error: str = "",
    give_up: bool = False,
) -> str:
    """Store the attempt under our claim: done, queued again (retry) or failed."""
    _add_calls(claim.unit.run_id, tally.drain())
    failed = bool(error)
    if not failed:
        status, outcome = UnitStatus.DONE, "done"
    elif give_up or claim.unit.failures + 1 >= attune_config().evaluation_unit_max_failures:
        status, outcome = UnitStatus.FAILED, "failed"
    else:
        status, outcome = UnitStatus.QUEUED, "retry"
    totals = tally.total
    with transaction.atomic():
        stored = _mine(claim).update(
            status=status,
            output=run_output_to_dict(output) if output is not None else None,
            error=error,
            failures=F("failures") + int(failed),
            calls_made=totals.made,
            calls_cached=totals.cached,
            call_errors=totals.errors,
            cost_usd=money(totals.cost_usd),
            duration_s=round(time.perf_counter() - started, 3),
            lease_until=None,
            finished_at=timezone.now(),
        )
        if not stored:
            return "skipped"  # our claim lapsed and another worker owns the unit now
        if status == UnitStatus.DONE:
            EvaluationRun.objects.filter(pk=claim.unit.run_id).update(
                units_done=F("units_done") + 1
            )
        elif status == UnitStatus.FAILED:
            EvaluationRun.objects.filter(pk=claim.unit.run_id).update(
                units_failed=F("units_failed") + 1
            )
    return outcome


# --- hand on ----------------------------------------------------------------------------------


def retry_delay(failures: int) -> float:
    """Seconds before a failed unit runs again: its failed calls were rate limits or outages."""
    return min(120.0, 5.0 * 2 ** max(0, failures - 1))


def sweep_run(run_id: int) -> None:
    """Put units whose worker is gone back in the queue, and finish the run when nothing is left.

    Called after every unit, by every worker's periodic sweep (``attune_collect.sweep``) and by
    ``manage.py evaluate`` while it waits, so a killed worker's unit never holds a run up.
    """
    run = EvaluationRun.objects.filter(pk=run_id).first()
    if run is None or run.status != RunStatus.RUNNING:
        return
    requeued = requeue_lapsed_units(run) + unclaimed_units(run)
    dispatch.enqueue_units(run, requeued)
    run.refresh_from_db()
    if (
        run.status == RunStatus.RUNNING
        and run.units_finished >= run.units_total
        and _claim_finalization(run.pk)
    ):
        dispatch.enqueue_finalize(run)


def _finalization_free(now: datetime) -> Q:
    """Nobody holds the run's finalization: no lease, or a lapsed one."""
    return Q(finalize_lease_until__isnull=True) | Q(finalize_lease_until__lt=now)


def _claim_finalization(run_id: int) -> bool:
    """Take the sending of a finished run's finalization, so of several workers (the last
    units', the sweeps) one sends it; sent again by the sweep if no finalizer took it within
    the bound (the message was lost)."""
    now = timezone.now()
    return bool(
        EvaluationRun.objects.filter(
            _finalization_free(now), pk=run_id, status=RunStatus.RUNNING
        ).update(finalize_lease_until=now + resend_bound())
    )


def sweep_running_runs() -> int:
    """``sweep_run`` for every running run with a lapsed unit or with nothing left to run
    (and nobody finalizing it), after putting back the runs whose finalizer died."""
    now = timezone.now()
    requeue_lost_finalizations(now)
    run_ids = (
        EvaluationRun.objects.filter(status=RunStatus.RUNNING)
        .filter(
            Q(units__status=UnitStatus.RUNNING, units__lease_until__lt=now)
            | Q(units__status=UnitStatus.QUEUED, started_at__lt=now - resend_bound())
            | (Q(units_total=F("units_done") + F("units_failed")) & _finalization_free(now))
        )
        .values_list("pk", flat=True)
        .distinct()
    )
    swept = list(run_ids)
    for run_id in swept:
        sweep_run(run_id)
    return len(swept)


FINALIZER_LOST = AuditAction.EVALUATION_RUN_FINALIZER_LOST


def requeue_lost_finalizations(now: datetime) -> list[int]:
    """Runs left scoring by a finalizer that stopped renewing its lease (its worker died, or
    a run left scoring before finalizers had leases): back to running, to be finalized again.
    The report is written to a temporary folder and moved into place, so nothing half-written
    is kept."""
    lost = EvaluationRun.objects.filter(_finalization_free(now), status=RunStatus.SCORING)
    requeued = []
    for run in lost:
        back = EvaluationRun.objects.filter(
            pk=run.pk, status=RunStatus.SCORING, finalize_lease_until=run.finalize_lease_until
        ).update(status=RunStatus.RUNNING, finalize_lease_until=None)
        if back:  # this sweep's claim: of several workers, one records and re-sends it
            record_audit(
                FINALIZER_LOST,
                target=run,
                actor_label="worker",
                data={"lease_until": str(run.finalize_lease_until)},
            )
            requeued.append(run.pk)
    return requeued


UNCLAIMED = AuditAction.EVALUATION_UNITS_UNCLAIMED


def unclaimed_units(run: EvaluationRun) -> list[int]:
    """Queued units of a run where nothing moved for the bound: no live lease, no unit started
    or finished, no earlier re-send. Their messages were most likely taken by a worker that was
    killed before it could start them (Redis returns such a message only after its visibility
    timeout), so they are sent again; a duplicate message is harmless (claims are conditional).
    """
    now = timezone.now()
    since = now - resend_bound()
    if run.started_at is None or run.started_at > since:
        return []
    if run.units.filter(status=UnitStatus.RUNNING, lease_until__gte=now).exists():
        return []
    if run.units.filter(Q(started_at__gt=since) | Q(finished_at__gt=since)).exists():
        return []
    if AuditEntry.objects.filter(
        action=UNCLAIMED,
        target_type=run._meta.label_lower,
        target_id=str(run.pk),
        created_at__gt=since,
    ).exists():
        return []
    queued = list(run.units.filter(status=UnitStatus.QUEUED).values_list("pk", flat=True))
    if queued:
        record_audit(UNCLAIMED, target=run, actor_label="worker", data={"units": len(queued)})
    return queued


def requeue_lapsed_units(run: EvaluationRun) -> list[int]:
    """Units running under a lapsed lease: queued again, or failed after too many failures."""
    now = timezone.now()
    lapsed = run.units.filter(status=UnitStatus.RUNNING, lease_until__lt=now)
    requeued = []
    for pk, attempts, failures in lapsed.values_list("pk", "attempts", "failures"):
        give_up = failures + 1 >= attune_config().evaluation_unit_max_failures
        with transaction.atomic():
            changed = EvaluationUnit.objects.filter(
                pk=pk, status=UnitStatus.RUNNING, attempts=attempts, lease_until__lt=now
            ).update(
                status=UnitStatus.FAILED if give_up else UnitStatus.QUEUED,
                failures=F("failures") + 1,
                error=LOST_WORKER,
                lease_until=None,
            )
            if changed and give_up:
                EvaluationRun.objects.filter(pk=run.pk).update(units_failed=F("units_failed") + 1)
        if changed and not give_up:
            requeued.append(pk)
        if changed:
            record_audit(
                AuditAction.EVALUATION_UNIT_LAPSED,
                target=run,
                actor_label="worker",
                data={"unit": pk, "attempts": attempts, "requeued": not give_up},
            )
    return requeued
