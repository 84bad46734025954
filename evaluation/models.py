"""Evaluation runs and their units of work, as stored by the Django side.

A run is a frozen release (its content hash copied at start, so a report always names the exact
data) times models times modes. Its units, one per (model, conversation, mode), are what Celery
workers claim and execute; the run's counters are sums the workers keep up to date with F()
expressions. State changes go through ``evaluation/services/``; nothing here writes by itself.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from attunebench.runner import MODES, PANAS_STRATEGIES

DEFAULT_SEED = (
    20_240_601  # the statistics' default seed: runs are reproducible unless told otherwise
)
MAX_SEED = 2**63 - 1  # what EvaluationRun.seed, a signed 64-bit column, holds


class RunStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    SCORING = "scoring", "Scoring (building the report)"
    CANCELLED = "cancelled", "Cancelled"
    COMPLETED = "completed", "Completed"
    FAILED = "failed", "Failed"


ACTIVE_RUN_STATUSES = (RunStatus.QUEUED, RunStatus.RUNNING, RunStatus.SCORING)


class UnitStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


def _in(values) -> list[str]:
    return [str(value) for value in values]


class EvaluationRun(models.Model):
    release = models.ForeignKey(
        "releases.Release", on_delete=models.PROTECT, related_name="evaluation_runs"
    )
    release_hash = models.CharField(max_length=64, help_text="The release's content hash at start.")
    models_under_test = models.ManyToManyField(
        "annotations.ModelEndpoint", related_name="evaluation_runs"
    )
    judges = models.ManyToManyField(
        "annotations.ModelEndpoint", related_name="judged_evaluation_runs", blank=True
    )
    modes = models.JSONField(default=list, help_text='e.g. ["default", "verbose"]')
    panas_strategy = models.CharField(max_length=16, default="absolute")
    subsample = models.CharField(max_length=120, blank=True, help_text="Blank: every conversation.")
    prompt_set = models.CharField(max_length=40, default="v1")
    prompt_version = models.CharField(max_length=80, help_text="Prompt set name + content hash.")
    seed = models.BigIntegerField(default=DEFAULT_SEED, help_text="Statistics and baselines.")
    # Options of the report's statistics (attunebench.report.build.STATISTICS_OPTIONS); they
    # change which tests count and how, never a score.
    statistics_options = models.JSONField(
        default=dict,
        blank=True,
        help_text="holm_across_axes: correct the pair tests across the axes too; rank_outcome: "
        "rank and test outcome prediction like the paper's four axes.",
    )
    # The models' and judges' endpoint records when the run was created (model string,
    # parameters, prompt version and hash, gateway settings; the API base as its host only),
    # so the report states what ran even if an endpoint is edited later.
    configurations = models.JSONField(
        default=dict, blank=True, help_text="The models' and judges' endpoints at creation."
    )
    inline = models.BooleanField(
        default=False, help_text="Run by `manage.py evaluate --inline` in its own process."
    )

    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED)
    units_total = models.PositiveIntegerField(default=0)
    units_done = models.PositiveIntegerField(default=0)
    units_failed = models.PositiveIntegerField(default=0)
    calls_made = models.PositiveIntegerField(default=0, help_text="Requests sent to a model.")
    calls_cached = models.PositiveIntegerField(default=0, help_text="Answers from the call cache.")
    call_errors = models.PositiveIntegerField(default=0, help_text="Calls that failed for good.")
    cost_usd = models.DecimalField(max_digits=14, decimal_places=8, default=0)
    estimated_calls = models.PositiveIntegerField(default=0)
    estimated_cost_usd = models.DecimalField(
        max_digits=14, decimal_places=8, null=True, blank=True, help_text="Empty: unknown price."
    )
    estimate = models.JSONField(default=dict, blank=True, help_text="Per model, with its basis.")
    error = models.TextField(blank=True)
    report_folder = models.CharField(max_length=500, blank=True)

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_via = models.CharField(max_length=120, blank=True, help_text="admin or command:...")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Who holds the run's finalization, until when (services/finalize.py): while running with
    # every unit finished, the finalize message sent (the sweep sends again after it); while
    # scoring, the worker building the report, which renews it (a lapse: that worker died).
    finalize_lease_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        permissions = [
            ("start_evaluation", "Can start, cancel and resume evaluation runs"),
            ("view_report", "Can view and download evaluation reports"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=_in(RunStatus.values)), name="evaluation_run_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(panas_strategy__in=list(PANAS_STRATEGIES)),
                name="evaluation_run_panas_strategy_valid",
            ),
            models.CheckConstraint(
                condition=Q(units_total__gte=F("units_done") + F("units_failed")),
                name="evaluation_run_units_add_up",
            ),
            models.CheckConstraint(
                condition=~Q(release_hash=""), name="evaluation_run_has_release_hash"
            ),
            models.CheckConstraint(
                condition=~Q(status=RunStatus.COMPLETED) | ~Q(report_folder=""),
                name="evaluation_run_completed_has_report",
            ),
            models.CheckConstraint(
                condition=Q(cost_usd__gte=0), name="evaluation_run_cost_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"run {self.pk} on {self.release}"

    @property
    def units_finished(self) -> int:
        return self.units_done + self.units_failed

    @property
    def progress_percent(self) -> int:
        return round(100 * self.units_finished / self.units_total) if self.units_total else 0

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_RUN_STATUSES


class EvaluationUnit(models.Model):
    """One (model, conversation, mode). ``attempts`` counts claims and never goes back: the
    claim that set it is the only one allowed to finish the unit. ``failures`` counts failed
    attempts since the last resume and decides when to give up."""

    run = models.ForeignKey(EvaluationRun, on_delete=models.CASCADE, related_name="units")
    endpoint = models.ForeignKey(
        "annotations.ModelEndpoint", on_delete=models.PROTECT, related_name="evaluation_units"
    )
    conversation_id = models.CharField(max_length=120)
    source_file = models.CharField(max_length=255, help_text="File in the release's conversations/")
    mode = models.CharField(max_length=20)
    status = models.CharField(max_length=8, choices=UnitStatus.choices, default=UnitStatus.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    failures = models.PositiveIntegerField(default=0)
    output = models.JSONField(null=True, blank=True, help_text="The run output (section 6 shape).")
    calls_made = models.PositiveIntegerField(default=0)
    calls_cached = models.PositiveIntegerField(default=0)
    call_errors = models.PositiveIntegerField(default=0)
    cost_usd = models.DecimalField(max_digits=14, decimal_places=8, default=0)
    duration_s = models.FloatField(null=True, blank=True)
    error = models.TextField(blank=True)
    worker = models.CharField(max_length=200, blank=True, help_text="Who ran the last attempt.")
    lease_until = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["run", "endpoint", "conversation_id", "mode"],
                name="evaluation_unit_unique_per_run",
            ),
            models.CheckConstraint(
                condition=Q(status__in=_in(UnitStatus.values)), name="evaluation_unit_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(mode__in=list(MODES)), name="evaluation_unit_mode_valid"
            ),
            models.CheckConstraint(
                condition=~Q(status=UnitStatus.DONE) | Q(output__isnull=False),
                name="evaluation_unit_done_has_output",
            ),
            models.CheckConstraint(
                condition=~Q(status=UnitStatus.RUNNING) | Q(lease_until__isnull=False),
                name="evaluation_unit_running_has_lease",
            ),
            models.CheckConstraint(
                condition=~Q(status=UnitStatus.FAILED) | ~Q(error=""),
                name="evaluation_unit_failed_says_why",
            ),
        ]
        indexes = [models.Index(fields=["run", "status"])]

    def __str__(self) -> str:
        return f"{self.endpoint} · {self.conversation_id} · {self.mode}"
