"""The leaderboard as rows: models by composite (best first), then baselines as reference rows."""

from __future__ import annotations

from typing import Any

from attunebench.report.charts import leaderboard_rows
from attunebench.report.provenance import Provenance
from attunebench.stats.results import AxisEstimate, Statistics

FIELDS: tuple[str, ...] = ("mean", "ci_low", "ci_high", "n", "rank", "rank_low", "rank_high")


def ordered_models(statistics: Statistics) -> list[tuple[str, bool]]:
    """(model, is baseline) in leaderboard order: by composite mean, baselines last."""
    axis = "composite" if "composite" in statistics.axes else statistics.axes[0]
    return [(e.model, e.baseline) for e in leaderboard_rows(statistics, axis)]


def estimates_by_model(statistics: Statistics) -> dict[str, dict[str, AxisEstimate]]:
    mode = statistics.settings["primary_mode"]
    table: dict[str, dict[str, AxisEstimate]] = {}
    for e in statistics.estimates:
        if e.mode == mode:
            table.setdefault(e.model, {})[e.axis] = e
    return table


def leaderboard_records(statistics: Statistics, provenance: Provenance) -> list[dict[str, Any]]:
    """One flat record per model: ``<axis>_<mean|ci_low|ci_high|n|rank|rank_low|rank_high>``."""
    table = estimates_by_model(statistics)
    records = []
    for model, baseline in ordered_models(statistics):
        record: dict[str, Any] = {
            "model": model,
            "kind": "baseline" if baseline else "model",
            "mode": statistics.settings["primary_mode"],
        }
        for axis in statistics.axes:
            estimate = table[model].get(axis)
            for name in FIELDS:
                record[f"{axis}_{name}"] = getattr(estimate, name) if estimate else None
        record.update(
            release_hash=provenance.release_hash,
            prompt_version=provenance.prompt_version,
            run_id=provenance.run_id,
        )
        records.append(record)
    return records
