"""The report folder of an evaluation run (issue 8, item 4), from ``stats.Statistics``.

    write_report(statistics, out_dir, Provenance(release_hash, prompt_version, run_id))

writes ``report.json``, ``leaderboard.csv``, ``report.html`` and ``charts/*.svg``. Pure: no Django.
"""

from attunebench.report.provenance import Provenance
from attunebench.report.reproducibility import (
    Reproducibility,
    engine_version,
    evaluate_command,
)
from attunebench.report.write import ReportFiles, write_report

__all__ = [
    "Provenance",
    "ReportFiles",
    "Reproducibility",
    "engine_version",
    "evaluate_command",
    "write_report",
]
