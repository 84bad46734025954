"""python manage.py evaluate --release NAME@VERSION --model M [--model M2 ...] --out DIR

Plans the run (units, calls, estimated cost), creates it, then either waits for the Celery
workers to run it (progress lines; a clear error when no worker takes it) or, with --inline,
runs it in this process through the same services. The report folder is copied to DIR, whose
path is the last line printed.
"""

from __future__ import annotations

import math
import shutil
import socket
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.releases.models import Release, ReleaseState
from attune_collect.config import attune_config
from attune_collect.stall import StallWatch
from attunebench.prompts import DEFAULT_PROMPT_SET
from attunebench.runner import MODES, PANAS_STRATEGIES
from evaluation.models import DEFAULT_SEED, MAX_SEED, EvaluationRun, RunStatus, UnitStatus
from evaluation.progress import progress_line
from evaluation.services.control import cancel_run
from evaluation.services.creation import create_run
from evaluation.services.endpoints import endpoint_for_model
from evaluation.services.errors import EvaluationError
from evaluation.services.inline import run_inline
from evaluation.services.planning import RunRequest, plan_run
from evaluation.services.units import sweep_run

ACTOR = "command:evaluate"


class Command(BaseCommand):
    help = "Evaluate models on a frozen release and write the report folder to --out."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--release", required=True, help="NAME@VERSION of a frozen release")
        parser.add_argument(
            "--model", required=True, action="append", help="registry alias or litellm model"
        )
        parser.add_argument(
            "--mode", action="append", choices=MODES, help="(repeat) default: default"
        )
        parser.add_argument("--judge", action="append", default=[], help="judge model (repeat)")
        parser.add_argument("--panas-strategy", choices=PANAS_STRATEGIES, default="absolute")
        parser.add_argument(
            "--subsample", default="", help="e.g. sample50 (the release's subsamples/)"
        )
        parser.add_argument("--prompt-set", default=DEFAULT_PROMPT_SET)
        parser.add_argument(
            "--seed", type=int, default=DEFAULT_SEED, help="statistics and baselines"
        )
        parser.add_argument(
            "--holm-across-axes",
            action="store_true",
            help="count a pair distinguished after Holm over every axis-pair test (default: per axis)",
        )
        parser.add_argument(
            "--rank-outcome",
            action="store_true",
            help="also rank and test outcome prediction (this platform's addition)",
        )
        parser.add_argument(
            "--inline", action="store_true", help="run here, without Celery workers"
        )
        parser.add_argument(
            "--worker-timeout",
            type=float,
            default=30.0,
            help="seconds to wait for a worker to take the run (default 30)",
        )
        parser.add_argument("--out", required=True, type=Path, help="where to copy the report")

    def handle(self, *args, **options) -> None:
        _check_options(options)  # before the run: a bad --out must not surface after it
        try:
            request = self._run_request(options)
            plan = plan_run(request)
        except EvaluationError as exc:
            raise CommandError(exc.message) from None
        cost = plan.estimate.cost_usd
        self.stdout.write(
            f"{plan.units} units ({len(plan.conversations)} conversations x "
            f"{len(request.models)} models x {len(request.modes)} modes), {plan.calls} calls, "
            f"estimated cost {'unknown' if cost is None else f'${cost:.4f}'}"
        )
        run = create_run(request, actor_label=ACTOR, inline=options["inline"], plan=plan)
        self.stdout.write(f"run {run.pk} created")
        if options["inline"]:
            run = run_inline(
                run.pk, worker=f"inline@{socket.gethostname()}", on_progress=self._show
            )
        else:
            run = self._wait(run, options["worker_timeout"])
        if run.status != RunStatus.COMPLETED:
            raise CommandError(f"run {run.pk} ended {run.status}: {run.error or 'see the admin'}")
        out: Path = options["out"]
        shutil.copytree(run.report_folder, out, dirs_exist_ok=True)
        self.stdout.write(str(out.resolve()))

    def _run_request(self, options) -> RunRequest:
        name, sep, version = options["release"].partition("@")
        release = Release.objects.filter(name=name, version=version).first() if sep else None
        if release is None or release.state != ReleaseState.FROZEN:
            raise CommandError(f"no frozen release {options['release']!r} (use NAME@VERSION)")
        return RunRequest(
            release=release,
            models=tuple(endpoint_for_model(m, actor_label=ACTOR) for m in options["model"]),
            judges=tuple(endpoint_for_model(j, actor_label=ACTOR) for j in options["judge"]),
            modes=tuple(options["mode"] or ["default"]),
            panas_strategy=options["panas_strategy"],
            subsample=options["subsample"],
            prompt_set=options["prompt_set"],
            seed=options["seed"],
            holm_across_axes=options["holm_across_axes"],
            rank_outcome=options["rank_outcome"],
        )

    def _show(self, run: EvaluationRun) -> None:
        self.stdout.write(progress_line(run))

    def _report_stall(self, run: EvaluationRun, watch: StallWatch) -> None:
        queued = run.units.filter(status=UnitStatus.QUEUED).count()
        running = run.units.filter(status=UnitStatus.RUNNING).count()
        quiet = watch.stalled_for((run.units_finished, run.calls_made, run.calls_cached, running))
        if quiet is not None:
            self.stderr.write(
                f"stalled: no progress for {quiet:.0f} s ({queued} units queued, {running} "
                "running). A killed worker's units are sent again by the workers' sweep; check "
                "that a worker runs (`manage.py check_worker`)."
            )

    def _wait(self, run: EvaluationRun, worker_timeout: float) -> EvaluationRun:
        """Poll the run; look after lapsed units (a killed worker) while waiting."""
        deadline = time.monotonic() + worker_timeout
        last = ""
        watch = StallWatch(attune_config().unclaimed_requeue_s)
        while True:
            run.refresh_from_db()
            if not run.is_active:
                return run
            self._report_stall(run, watch)
            taken = run.units.exclude(status=UnitStatus.QUEUED).exists()
            if not taken and run.units_finished == 0 and time.monotonic() > deadline:
                cancel_run(run, actor_label=ACTOR)
                raise CommandError(
                    f"no Celery worker took run {run.pk} within {worker_timeout:g} s, so it was "
                    "cancelled. Start a worker (`celery -A attune_collect worker`) and resume it "
                    "in the admin, or run again with --inline to run it in this process."
                )
            line = progress_line(run)
            if line != last:
                self.stdout.write(line)
                last = line
            sweep_run(run.pk)
            time.sleep(1.0)


def _check_options(options: dict) -> None:
    """Refuse, before anything runs, what would fail only at the end or never end."""
    out: Path = options["out"]
    if out.exists() and not out.is_dir():
        raise CommandError(f"--out {out} is a file: give a folder (it is made if missing)")
    timeout = options["worker_timeout"]
    if not math.isfinite(timeout) or timeout <= 0:
        raise CommandError(f"--worker-timeout must be a positive number of seconds, not {timeout}")
    if not 0 <= options["seed"] <= MAX_SEED:
        raise CommandError(f"--seed must be a whole number from 0 to {MAX_SEED}")
