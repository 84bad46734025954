"""The standing leaderboard of a release in the admin: every finished run's per-conversation
scores (from its report folder: per_conversation.parquet, scores.json), grouped into boards
whose runs may be compared (same release hash, prompt version, scoring options and seed), and
compared by the package (``attunebench.leaderboard``) without calling any model. Each kept
entry carries the configuration its model ran with (the run's record made at its creation).

Who may see it: whoever may view evaluation reports, over the runs they may see (the admin
view filters the runs before calling here).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from annotations.releases.models import Release
from attunebench.cli_report import Table, leaderboard_table, pairs_table
from attunebench.leaderboard import (
    BASELINE_PREFIX,
    Entry,
    Identity,
    Leaderboard,
    add_rows,
    board_statistics,
)
from attunebench.score_folder import PER_CONVERSATION_FILE, SCORES_FILE
from attunebench.stats.build import score_columns
from evaluation.engine import release_conversations
from evaluation.models import EvaluationRun, RunStatus
from evaluation.services.configurations import run_configurations
from evaluation.services.report import report_folder, run_instrument


@dataclass(frozen=True)
class BoardView:
    identity: Identity
    run_ids: tuple[int, ...]
    leaderboard: Table
    pairs: Table
    entries: tuple[Entry, ...] = ()  # the models kept (no baselines), with their provenance


def finished_runs(release: Release, runs: Iterable[EvaluationRun]) -> list[EvaluationRun]:
    """The completed runs of ``release`` among ``runs`` whose report folder is on this server."""
    return [
        run
        for run in runs
        if run.release_id == release.pk
        and run.status == RunStatus.COMPLETED
        and (report_folder(run) / PER_CONVERSATION_FILE).is_file()
    ]


def release_boards(release: Release, runs: Sequence[EvaluationRun]) -> list[BoardView]:
    """One board per comparable group of ``runs`` (oldest first; a later run of the same model
    and mode replaces the earlier), each with its leaderboard and paired tests on the composite."""
    boards: dict[str, tuple[Leaderboard, list[int]]] = {}
    for run in sorted(runs, key=lambda r: r.pk):
        folder = report_folder(run)
        scoring = json.loads((folder / SCORES_FILE).read_text(encoding="utf-8"))
        identity = Identity(
            run.release_hash, run.prompt_version, dict(scoring["scoring_options"]), run.seed
        )
        key = json.dumps(
            [
                identity.release_hash,
                identity.prompt_version,
                identity.scoring_options,
                identity.seed,
            ],
            sort_keys=True,
        )
        board, ids = boards.setdefault(
            key, (Leaderboard(identity, release.name, release.version), [])
        )
        rows = score_columns(pd.read_parquet(folder / PER_CONVERSATION_FILE))
        add_rows(board, rows, str(run.pk), model_configurations(run), replace=True)
        ids.append(run.pk)
    if not boards:
        return []
    conversations = release_conversations(release.folder)
    instrument = run_instrument(runs[0])
    views = []
    for board, ids in boards.values():
        statistics = board_statistics(board, conversations, instrument)
        views.append(
            BoardView(
                board.identity,
                tuple(ids),
                leaderboard_table(statistics),
                pairs_table(statistics, "composite"),
                tuple(e for e in board.entries if not e.model.startswith(BASELINE_PREFIX)),
            )
        )
    return views


def model_configurations(run: EvaluationRun) -> dict[str, dict[str, Any]]:
    """The run's models' configurations as a board entry keeps them, by the name their score
    rows carry (the model string). The keys ``attunebench run`` records (run_config.py: model,
    api_base, params) and the report's identity of the configuration; shown like the report:
    the API base as its host only, the parameters through the report's allow-list (the others
    by name only), no key nor its variable's name (the run's record holds neither)."""
    return {
        c.model: {
            "model": c.model,
            "api_base": c.api_base_host,
            "params": dict(c.params),
            "params_withheld": list(c.params_withheld),
            "alias": c.alias,
            "configuration_id": c.configuration_id,
        }
        for c in run_configurations(run)
        if c.role == "model"
    }


def board_as_dict(board: BoardView) -> dict[str, Any]:
    """A board as plain JSON (the researcher API's leaderboard): what makes its runs
    comparable, the runs, the models kept with their configurations, and its two tables as
    column names and rows."""
    return {
        "release_hash": board.identity.release_hash,
        "prompt_version": board.identity.prompt_version,
        "scoring_options": dict(board.identity.scoring_options),
        "seed": board.identity.seed,
        "runs": list(board.run_ids),
        "entries": [
            {k: v for k, v in entry.to_dict().items() if k != "rows"} for entry in board.entries
        ],
        "leaderboard": _table(board.leaderboard),
        "pairs": _table(board.pairs),
    }


def _table(table: Table) -> dict[str, Any]:
    columns, rows = table
    return {"columns": list(columns), "rows": [list(row) for row in rows]}
