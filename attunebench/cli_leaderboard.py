"""``attunebench leaderboard add|show``: the standing leaderboard of a release (leaderboard.py).

    attunebench leaderboard add --board BOARD --data RELEASE --runs RUNS [--compat]
    attunebench leaderboard show --board BOARD --data RELEASE [--csv FILE] [--json FILE]

``add`` scores the run's outputs (no model call) and stores them; ``show`` compares every
stored model again (intervals, ranks, paired tests) and prints or exports the board.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

from attunebench.cli_report import (
    RunsFolder,
    instrument_of,
    leaderboard_table,
    pairs_table,
)
from attunebench.leaderboard import (
    Leaderboard,
    LeaderboardError,
    add_run,
    board_statistics,
    load_board,
    save_board,
)
from attunebench.release import DataFolderError, load_conversations, release_identity
from attunebench.run_config import RUN_CONFIG_FILE, read_run_config
from attunebench.stats.results import Statistics
from attunebench.tables import format_table

FIELDS = ("mean", "ci_low", "ci_high", "n", "rank", "rank_low", "rank_high")


def leaderboard_command(args: argparse.Namespace) -> int:
    try:
        return add_command(args) if args.action == "add" else show_command(args)
    except LeaderboardError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def add_command(args: argparse.Namespace) -> int:
    conversations = load_conversations(args.data)
    runs = RunsFolder(args.runs)
    result = add_run(
        load_board(args.board),
        conversations,
        runs.items(),
        release=release_identity(args.data),
        seed=args.seed,
        run_id=args.run_id or args.runs.name,
        configurations=read_run_config(args.runs / RUN_CONFIG_FILE).get("models", {}),
        replace=args.replace,
        compat=args.compat,
    )
    path = save_board(result.board, args.board)
    added = ", ".join(f"{model} ({mode})" for model, mode in result.added)
    print(f"added {added} to {path} ({len(result.board.models())} models)")
    return 0


def show_command(args: argparse.Namespace) -> int:
    board = load_board(args.board)
    if board is None:
        raise DataFolderError(f"no leaderboard in {args.board}")
    conversations = load_conversations(args.data)
    if (found := release_identity(args.data).content_hash) != board.identity.release_hash:
        raise LeaderboardError(
            f"the board is of release {board.identity.release_hash}, not of {found}"
        )
    statistics = board_statistics(board, conversations, instrument_of(args))
    print(
        f"{board.release_name} {board.release_version} · release {board.identity.release_hash[:12]}"
        f" · prompt {board.identity.prompt_version}"
    )
    print(format_table(*leaderboard_table(statistics, args.axis)))
    print()
    print(format_table(*pairs_table(statistics, args.axis)))
    if args.csv:
        write_csv(statistics, args.csv)
    if args.json:
        args.json.write_text(
            json.dumps(export(board, statistics), indent=1, allow_nan=False) + "\n",
            encoding="utf-8",
        )
    return 0


def write_csv(statistics: Statistics, path: Path) -> None:
    """One row per (model, axis) of the leading mode."""
    mode = statistics.settings["primary_mode"]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["model", "kind", "mode", "axis", *FIELDS])
        for e in statistics.estimates:
            if e.mode == mode:
                kind = "baseline" if e.baseline else "model"
                writer.writerow([e.model, kind, e.mode, e.axis, *(getattr(e, f) for f in FIELDS)])


def export(board: Leaderboard, statistics: Statistics) -> dict[str, Any]:
    """The board's provenance and entries (without their rows) and the statistics."""
    data = board.to_dict()
    data["entries"] = [
        {k: v for k, v in entry.items() if k != "rows"} | {"conversations": len(entry["rows"])}
        for entry in data["entries"]
    ]
    stats = statistics.to_dict()
    data["statistics"] = {
        key: stats[key] for key in ("settings", "models", "baselines", "axes", "estimates", "pairs")
    }
    return data
