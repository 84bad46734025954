"""Write the report folder: report.json, leaderboard.csv, report.html, charts/*.svg."""

from __future__ import annotations

import csv
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from attunebench.report.charts import all_charts
from attunebench.report.html import render_html, report_sections
from attunebench.report.judges import judged_quality_statement
from attunebench.report.leaderboard import leaderboard_records
from attunebench.report.provenance import Provenance
from attunebench.report.reproducibility import Reproducibility
from attunebench.stats.results import Statistics

REPORT_VERSION = 1


@dataclass(frozen=True)
class ReportFiles:
    folder: Path
    json: Path
    csv: Path
    html: Path
    charts: tuple[Path, ...]


def write_report(
    statistics: Statistics,
    folder: Path | str,
    provenance: Provenance,
    reproducibility: Reproducibility | None = None,
) -> ReportFiles:
    """Write (or overwrite) the report files in ``folder``; the same inputs give the same bytes.

    ``report.json`` also carries the reproducibility block, the judged-quality axis's agreement
    with the participants, and every section's tables with their "how to read this" notes as
    HTML (the admin's report page shows them as they are in report.html)."""
    folder = Path(folder)
    (folder / "charts").mkdir(parents=True, exist_ok=True)
    charts = all_charts(statistics, provenance)
    chart_paths = []
    for chart in charts:
        path = folder / "charts" / f"{chart.name}.svg"
        path.write_text(chart.svg + "\n", encoding="utf-8")
        chart_paths.append(path)

    document = {
        "report_version": REPORT_VERSION,
        "provenance": asdict(provenance),
        "reproducibility": reproducibility.to_dict() if reproducibility else None,
        "axis_notes": {
            "judged_response_quality": judged_quality_statement(
                statistics, reproducibility.judge_labels() if reproducibility else {}
            )
        },
        # What is and is not corrected for multiple comparisons (also under "statistics").
        "multiplicity": statistics.multiplicity,
        "statistics": statistics.to_dict(),
        "sections": [
            {"id": key, "title": title, "html": html}
            for key, title, html in report_sections(statistics, provenance, reproducibility)
            if html
        ],
        "charts": [
            {"file": f"charts/{c.name}.svg", "title": c.title, "caption": c.caption} for c in charts
        ],
    }
    json_path = folder / "report.json"
    json_path.write_text(json.dumps(document, indent=2, allow_nan=False) + "\n", encoding="utf-8")

    records = leaderboard_records(statistics, provenance)
    csv_path = folder / "leaderboard.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(records[0]) if records else ["model"])
        writer.writeheader()
        writer.writerows(records)

    html_path = folder / "report.html"
    html_path.write_text(
        render_html(statistics, charts, provenance, reproducibility), encoding="utf-8"
    )
    return ReportFiles(folder, json_path, csv_path, html_path, tuple(chart_paths))
