"""A run's progress as people read it: counts, money and time left (admin and command line)."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from evaluation.models import EvaluationRun


def time_left_s(run: EvaluationRun, now: datetime | None = None) -> float | None:
    """Remaining units at the pace so far; None until a unit has finished (no pace yet)."""
    if run.started_at is None or run.units_finished == 0 or not run.is_active:
        return None
    elapsed = ((now or timezone.now()) - run.started_at).total_seconds()
    remaining = run.units_total - run.units_finished
    return max(0.0, elapsed / run.units_finished * remaining)


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return "unknown yet"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def progress_line(run: EvaluationRun) -> str:
    line = (
        f"{run.status}: units {run.units_done}/{run.units_total} done, {run.units_failed} failed"
        f" · calls {run.calls_made} made, {run.calls_cached} cached, {run.call_errors} errors"
        f" · ${run.cost_usd:.4f}"
    )
    if run.is_active:
        line += f" · time left {format_duration(time_left_s(run))}"
    return line
