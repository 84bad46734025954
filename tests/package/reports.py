"""Helpers shared by the package tests: a finished admin run's outputs as a runs folder, and the
parts of two reports that must be equal: all of them but what names the tool that built the
report (its re-run command and how to run it, with their paths) and what only the admin's
endpoint records hold. A report holds no time; the tests give the command line the run's id."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from attune_collect.llm import EndpointConfig
from attunebench.run_config import write_run_config
from evaluation.models import EvaluationRun, UnitStatus

# Each tool's own re-run: ``attunebench run ... && attunebench report ...`` with the folders it
# read and wrote, or ``manage.py evaluate`` with the admin's release and aliases; and the note
# on what that command needs. Inherent: each report tells how to re-run it with its own tool.
TOOL_REPRODUCIBILITY = ("command", "rerun_note")
# A configuration's fields from the admin's endpoint record that ``attunebench run`` has no
# notion of: the provider and its model name (the model string says it), the participant chat's
# system prompt (never sent by the benchmark) and the gateway's pace settings. None of them
# enters the configuration id: they change nothing in the numbers. Everything else is compared.
ENDPOINT_ONLY = (
    "provider",
    "model_name",
    "endpoint_system_prompt_version",
    "endpoint_system_prompt_sha256",
    "endpoint_settings",
)
# The reproducibility section's HTML prints the re-run command, its note and the endpoint
# settings (above); its content is compared through the JSON block instead.
TOOL_SECTIONS = ("reproducibility",)


def export_outputs(run: EvaluationRun, folder: Path) -> Path:
    """Every finished unit's stored output as a run-output file and the run's configuration as
    run_config.json (what ``attunebench run`` writes), each model and judge under the alias the
    admin knew it by."""
    folder.mkdir(parents=True, exist_ok=True)
    for pk, output in run.units.filter(status=UnitStatus.DONE).values_list("pk", "output"):
        (folder / f"run_unit_{pk}.json").write_text(json.dumps(output), encoding="utf-8")
    records = run.configurations
    write_run_config(
        folder,
        [_spec(r) for r in records["models"]],
        [_spec(r) for r in records["judges"]],
        run.modes,
        run.panas_strategy,
        run.prompt_set,
        aliases={r["model"]: r["alias"] for r in [*records["models"], *records["judges"]]},
    )
    return folder


def _spec(record: dict[str, Any]) -> EndpointConfig:
    """How ``attunebench run`` would call the endpoint (its record keeps the API host only)."""
    host = record["api_base"]
    return EndpointConfig(
        record["model"], api_base=f"https://{host}" if host else None, params=record["params"]
    )


def comparable(report: dict[str, Any]) -> dict[str, Any]:
    found = copy.deepcopy(report)
    block = found["reproducibility"]
    for name in TOOL_REPRODUCIBILITY:
        del block[name]
    for configuration in block["configurations"]:
        for name in ENDPOINT_ONLY:
            del configuration[name]
    found["sections"] = [s for s in found["sections"] if s["id"] not in TOOL_SECTIONS]
    return found
