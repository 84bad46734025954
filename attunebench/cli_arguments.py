"""The arguments of ``report``, ``compare`` and ``leaderboard`` (argparse only: building the
parser must not load pandas, which ``run`` never needs; their commands import it)."""

from __future__ import annotations

import argparse
from pathlib import Path

# The statistics options a report may switch on, all off by default (which tests count, never a
# score). Declared here, where parsing needs them without loading the statistics;
# attunebench.report.build and the evaluation app take them from here.
STATISTICS_OPTIONS: tuple[str, ...] = ("holm_across_axes", "rank_outcome")


def add_analysis_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments ``report`` and ``compare`` share: what to read and how to analyse it."""
    parser.add_argument("--data", required=True, type=Path, help="release or reference folder")
    parser.add_argument("--runs", required=True, type=Path, help="folder of run-output JSON")
    parser.add_argument("--subsample", help="the subsample the runs covered (e.g. sample50)")
    parser.add_argument("--seed", type=int, default=0, help="statistics and baseline seed")
    parser.add_argument("--instrument", type=Path, help="instrument JSON (default: built-in)")
    for name in STATISTICS_OPTIONS:
        parser.add_argument("--" + name.replace("_", "-"), action="store_true")


def add_report_parsers(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]  # argparse's private class: its type parameter is not public
    report = commands.add_parser("report", help="score + statistics + report folder of runs")
    add_analysis_arguments(report)
    report.add_argument("--run-id", default="cli", help="the run id the report names")
    report.add_argument("--out", required=True, type=Path, help="folder for the report")
    compare = commands.add_parser("compare", help="print ranks and paired tests of runs")
    add_analysis_arguments(compare)
    compare.add_argument("--axis", default="composite", help="axis of the paired tests")


def add_leaderboard_parsers(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]  # argparse's private class: its type parameter is not public
    board = commands.add_parser("leaderboard", help="a standing leaderboard of one release")
    actions = board.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="score a finished run and add it to the board")
    add.add_argument("--board", required=True, type=Path, help="the board's folder")
    add.add_argument("--data", required=True, type=Path, help="the release folder")
    add.add_argument("--runs", required=True, type=Path, help="the run's output folder")
    add.add_argument("--seed", type=int, default=0, help="baseline and statistics seed")
    add.add_argument("--run-id", help="a name for the run (default: the runs folder's)")
    add.add_argument("--replace", action="store_true", help="replace a model already there")
    add.add_argument(
        "--compat",
        action="store_true",
        help="score as the reference does where our rules depart (a board keeps one way)",
    )
    show = actions.add_parser("show", help="compare the stored models; print or export")
    show.add_argument("--board", required=True, type=Path, help="the board's folder")
    show.add_argument("--data", required=True, type=Path, help="the release folder")
    show.add_argument("--instrument", type=Path, help="instrument JSON (default: built-in)")
    show.add_argument("--axis", default="composite", help="axis of the table and the tests")
    show.add_argument("--csv", type=Path, help="write one row per model and axis here")
    show.add_argument("--json", type=Path, help="write the board and its statistics here")
