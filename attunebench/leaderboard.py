"""A standing leaderboard per release: the per-conversation scores of every finished run, kept
with their provenance, compared again without calling any model.

One JSON file (``leaderboard.json``) holds the board's identity (release hash, prompt version,
scoring options, seed) and one entry per (model, mode): its configuration, where it came from,
and its score rows (``stats.build.score_rows``: conversation id, the axes, parse failures).
The model-free baselines are stored once, from the first run added. Adding a run scores only
that run's outputs; the statistics (paired tests, intervals, ranks) are computed over every
stored row, so a joint run of the same models gives the same pairs. A run whose release,
prompts or scoring differ is refused: its numbers would not be comparable.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from attunebench.errors import AttuneBenchError
from attunebench.files import write_atomically
from attunebench.instrument import Instrument
from attunebench.release import ReleaseIdentity, SourcedConversation
from attunebench.run_output import RunOutput
from attunebench.score_folder import main_mode, score_runs
from attunebench.stats import StatsConfig, compute_statistics
from attunebench.stats.build import score_rows, with_attributes
from attunebench.stats.contract import AXES
from attunebench.stats.results import Statistics

BOARD_FORMAT = "attunebench-leaderboard/1"
BOARD_FILE = "leaderboard.json"
BASELINE_PREFIX = "baseline/"


class LeaderboardError(AttuneBenchError):
    """The run cannot join this board (the message says which provenance differs)."""


@dataclass(frozen=True)
class Identity:
    """What must be equal for two runs' scores to be compared."""

    release_hash: str
    prompt_version: str
    scoring_options: dict[str, bool]
    seed: int  # the baselines' and the statistics' seed

    def differences(self, other: Identity) -> list[str]:
        return [
            f"{name}: board {mine!r}, run {theirs!r}"
            for name, mine, theirs in (
                ("release hash", self.release_hash, other.release_hash),
                ("prompt version", self.prompt_version, other.prompt_version),
                ("scoring options", self.scoring_options, other.scoring_options),
                ("seed", self.seed, other.seed),
            )
            if mine != theirs
        ]


@dataclass
class Entry:
    model: str
    mode: str
    run_id: str
    added_at: str
    configuration: dict[str, Any]  # what the caller knows of the model's settings
    rows: list[dict[str, Any]]  # score rows, one per conversation

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "mode": self.mode,
            "run_id": self.run_id,
            "added_at": self.added_at,
            "configuration": self.configuration,
            "rows": self.rows,
        }


@dataclass
class Leaderboard:
    identity: Identity
    release_name: str = ""
    release_version: str = ""
    entries: list[Entry] = field(default_factory=list)

    def entry_keys(self) -> set[tuple[str, str]]:
        return {(e.model, e.mode) for e in self.entries}

    def models(self) -> list[tuple[str, str]]:
        """(model, mode) of every non-baseline entry, in the order they were added."""
        return [(e.model, e.mode) for e in self.entries if not e.model.startswith(BASELINE_PREFIX)]

    def frame(
        self, conversations: Sequence[SourcedConversation], instrument: Instrument
    ) -> pd.DataFrame:
        rows = pd.DataFrame([row for entry in self.entries for row in entry.rows])
        # An axis no stored conversation defines reads back as None (object): a float like
        # the scorer's frame, so the statistics see NaN there as they do after a joint run.
        rows = rows.astype({axis: "float64" for axis in AXES if axis in rows.columns})
        return with_attributes(
            rows, [c.conversation for c in conversations], profile=instrument.profile
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": BOARD_FORMAT,
            "release_name": self.release_name,
            "release_version": self.release_version,
            "release_hash": self.identity.release_hash,
            "prompt_version": self.identity.prompt_version,
            "scoring_options": self.identity.scoring_options,
            "seed": self.identity.seed,
            "entries": [e.to_dict() for e in self.entries],
        }


def load_board(folder: Path) -> Leaderboard | None:
    path = folder / BOARD_FILE
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != BOARD_FORMAT:
        raise LeaderboardError(f"{path} is not a {BOARD_FORMAT} file")
    identity = Identity(
        data["release_hash"],
        data["prompt_version"],
        dict(data["scoring_options"]),
        int(data["seed"]),
    )
    entries = [
        Entry(
            e["model"],
            e["mode"],
            e["run_id"],
            e["added_at"],
            dict(e["configuration"]),
            list(e["rows"]),
        )
        for e in data["entries"]
    ]
    return Leaderboard(
        identity, data.get("release_name", ""), data.get("release_version", ""), entries
    )


def save_board(board: Leaderboard, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / BOARD_FILE
    text = json.dumps(board.to_dict(), indent=1, allow_nan=False) + "\n"
    write_atomically(path, text.encode("utf-8"))
    return path


@dataclass(frozen=True)
class Added:
    board: Leaderboard
    added: list[tuple[str, str]]  # (model, mode)


def add_run(
    board: Leaderboard | None,
    conversations: Sequence[SourcedConversation],
    outputs: Sequence[tuple[str, RunOutput]],
    *,
    release: ReleaseIdentity,
    seed: int = 0,
    run_id: str = "",
    configurations: Mapping[str, Mapping[str, Any]] | None = None,
    replace: bool = False,
    compat: bool = False,
) -> Added:
    """Score one finished run's outputs and add its (model, mode) entries to ``board`` (a new
    board when None). Refuses a run whose provenance differs from the board's, and a (model,
    mode) already on it unless ``replace``. No model is called: the outputs are scored, with
    the reference's rules where ours depart from them when ``compat`` (a board keeps one way)."""
    prompts = {o.prompt_version or "" for _, o in outputs}
    if len(prompts) != 1:
        raise LeaderboardError(f"the run mixes prompt versions: {', '.join(sorted(prompts))}")
    modes = [o.mode or "default" for _, o in outputs]
    primary = board_mode(board) or main_mode(modes)
    scored = score_runs(
        conversations, outputs, compat=compat, baseline_seed=seed, baseline_mode=primary
    )
    identity = Identity(release.content_hash, prompts.pop(), scored.options.as_dict(), seed)
    if board is None:
        board = Leaderboard(identity, release.name, release.version)
    elif problems := board.identity.differences(identity):
        raise LeaderboardError("this run cannot join the board: " + "; ".join(problems))
    return Added(
        board, add_rows(board, score_rows(scored.conversations), run_id, configurations, replace)
    )


def add_rows(
    board: Leaderboard,
    rows: pd.DataFrame,
    run_id: str,
    configurations: Mapping[str, Mapping[str, Any]] | None = None,
    replace: bool = False,
) -> list[tuple[str, str]]:
    """Add one run's score rows (``stats.build.score_rows``) to a board whose provenance the
    caller has checked; returns the (model, mode) added (the baselines are kept once)."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    added: list[tuple[str, str]] = []
    for (model, mode), group in rows.groupby(["model", "mode"], sort=True):
        key = (str(model), str(mode))
        baseline = key[0].startswith(BASELINE_PREFIX)
        if key in board.entry_keys():
            if baseline:
                continue  # the same seed and release give the same baselines: kept once
            if not replace:
                raise LeaderboardError(f"{key[0]} ({key[1]}) is already on the board (replace it?)")
            board.entries = [e for e in board.entries if (e.model, e.mode) != key]
        config = dict((configurations or {}).get(key[0], {}))
        board.entries.append(Entry(key[0], key[1], run_id, now, config, _plain_rows(group)))
        if not baseline:
            added.append(key)
    return added


def board_mode(board: Leaderboard | None) -> str | None:
    """The board's leading mode: where its baselines were scored."""
    if board is None:
        return None
    modes = [e.mode for e in board.entries if e.model.startswith(BASELINE_PREFIX)]
    return modes[0] if modes else None


def board_statistics(
    board: Leaderboard, conversations: Sequence[SourcedConversation], instrument: Instrument
) -> Statistics:
    """Intervals, ranks and paired tests over every stored row (no judges' reliability: a
    board keeps scores, not the judges' answers)."""
    primary = board_mode(board) or main_mode(m for _, m in board.models())
    return compute_statistics(
        board.frame(conversations, instrument),
        StatsConfig(seed=board.identity.seed, primary_mode=primary),
        question_categories={q.id: q.category for q in instrument.behaviour_questions},
    )


def _plain_rows(group: pd.DataFrame) -> list[dict[str, Any]]:
    """JSON-ready rows: NaN becomes None (a score that is undefined for that conversation)."""
    records = group.sort_values("conversation_id").to_dict("records")
    return [
        {
            str(k): (None if isinstance(v, float) and math.isnan(v) else _scalar(v))
            for k, v in r.items()
        }
        for r in records
    ]


def _scalar(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value
