"""Helpers shared by the package tests: a finished admin run's outputs as a runs folder, and the
parts of two reports that must be equal (everything but the run's id and the re-run command,
which names the tool that built it; a report holds no time)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evaluation.models import EvaluationRun, UnitStatus

# The reproducibility block's fields that describe the numbers (the rest names the tool and
# the admin's aliases: the command, its note, the models' registry names and configurations).
SAME_REPRODUCIBILITY = (
    "release_name",
    "release_version",
    "release_hash",
    "prompt_version",
    "engine_version",
    "scoring_options",
    "statistics_options",
    "seeds",
    "modes",
    "panas_strategy",
    "subsample",
    "judge_models",
)


def export_outputs(run: EvaluationRun, folder: Path) -> Path:
    """Every finished unit's stored output as a run-output file (what ``attunebench run`` writes)."""
    folder.mkdir(parents=True, exist_ok=True)
    for pk, output in run.units.filter(status=UnitStatus.DONE).values_list("pk", "output"):
        (folder / f"run_unit_{pk}.json").write_text(json.dumps(output), encoding="utf-8")
    return folder


def comparable(report: dict[str, Any]) -> dict[str, Any]:
    reproducibility = report["reproducibility"]
    return {
        "report_version": report["report_version"],
        "provenance": {k: v for k, v in report["provenance"].items() if k != "run_id"},
        "reproducibility": {k: reproducibility[k] for k in SAME_REPRODUCIBILITY},
        "axis_notes": report["axis_notes"],
        "multiplicity": report["multiplicity"],
        "statistics": report["statistics"],
        "sections": [s for s in report["sections"] if s["id"] != "reproducibility"],
        "charts": report["charts"],
    }
