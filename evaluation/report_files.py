"""Reading a finished run's report folder for the admin: its files (by a fixed set of names,
never a path from the request), a zip of the whole folder, and the summary the report page
shows."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attunebench.report.formatting import decimals, heading
from attunebench.stats import AXES, AXIS_LABELS
from evaluation.models import EvaluationRun, RunStatus

# Sections of report.json the admin page shows its own way (its leaderboard, the figures).
ADMIN_OWN_SECTIONS = frozenset({"leaderboard", "axes"})
TOP_LEVEL_FILES = frozenset({"report.html", "report.json", "leaderboard.csv", "scores.json"})
_CHART = re.compile(r"^charts/[A-Za-z0-9_.-]+\.svg$")
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".csv": "text/csv; charset=utf-8",
    ".svg": "image/svg+xml",
}


def report_dir(run: EvaluationRun) -> Path | None:
    if run.status != RunStatus.COMPLETED or not run.report_folder:
        return None
    folder = Path(run.report_folder)
    return folder if folder.is_dir() else None


def report_file(run: EvaluationRun, name: str) -> Path | None:
    """The named report file, or None (unknown name, not finished, missing on this server)."""
    folder = report_dir(run)
    if folder is None or not (name in TOP_LEVEL_FILES or _CHART.match(name)):
        return None
    path = folder / name
    return path if path.is_file() else None


def report_zip(run: EvaluationRun) -> bytes:
    """The report folder as a zip (it is small: tables, JSON and SVG), under one top folder."""
    folder = report_dir(run)
    if folder is None:
        raise FileNotFoundError(f"{run} has no report folder on this server")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"evaluation-run-{run.pk}/{path.relative_to(folder)}")
    return buffer.getvalue()


@dataclass(frozen=True)
class ReportSummary:
    columns: list[str]  # axis labels
    rows: list[dict[str, Any]]  # model, kind, cells (mean and interval per axis), rank
    charts: list[dict[str, str]]  # file, title, caption
    distinguished: list[dict[str, Any]]  # per axis: "N of M pairs reliably distinguished"
    provenance: dict[str, str]
    # The report's analysis tables with their "how to read this" notes, as report.html has them
    # (HTML the report writer built and escaped), and the judged-quality axis's agreement note.
    sections: list[dict[str, str]]
    judged_quality_note: str


def report_summary(run: EvaluationRun) -> ReportSummary | None:
    json_path, csv_path = report_file(run, "report.json"), report_file(run, "leaderboard.csv")
    if json_path is None or csv_path is None:
        return None
    document = json.loads(json_path.read_text(encoding="utf-8"))
    with csv_path.open(newline="", encoding="utf-8") as handle:
        records = list(csv.DictReader(handle))
    rows = [
        {
            "model": record["model"],
            "kind": record["kind"],
            "rank": _rank(record),
            "cells": [_cell(record, axis) for axis in AXES],
        }
        for record in records
    ]
    # Reports written before the platform's addition was labelled carry no "platform_axes".
    platform_axes = tuple(document["statistics"].get("platform_axes", ()))
    return ReportSummary(
        columns=[heading(axis, platform_axes) for axis in AXES],
        rows=rows,
        charts=document.get("charts", []),
        distinguished=[
            {**d, "label": AXIS_LABELS.get(d["axis"], d["axis"])}
            for d in document["statistics"].get("discriminability", [])
        ],
        provenance=document.get("provenance", {}),
        sections=[
            section
            for section in document.get("sections", [])
            if section.get("id") not in ADMIN_OWN_SECTIONS
        ],
        judged_quality_note=document.get("axis_notes", {}).get("judged_response_quality", ""),
    )


def _number(text: str | None) -> float | None:
    return float(text) if text not in (None, "") else None


def _cell(record: dict[str, str], axis: str) -> str:
    mean = _number(record.get(f"{axis}_mean"))
    if mean is None:
        return "–"
    low, high = _number(record.get(f"{axis}_ci_low")), _number(record.get(f"{axis}_ci_high"))
    # The decimals of report.html (composite 2, as the spec rounds it): fewer would show two
    # composites the report tells apart as equal.
    digits = decimals(axis)
    interval = (
        f" [{low:.{digits}f}, {high:.{digits}f}]" if low is not None and high is not None else ""
    )
    return f"{mean:.{digits}f}{interval}"


def _rank(record: dict[str, str]) -> str:
    rank = record.get("composite_rank")
    if not rank:
        return "reference"
    low, high = record.get("composite_rank_low"), record.get("composite_rank_high")
    return f"{rank} ({low}–{high})" if low and high else rank


def content_type(path: Path) -> str:
    return CONTENT_TYPES.get(path.suffix, "application/octet-stream")
