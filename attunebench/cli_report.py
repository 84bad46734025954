"""``attunebench report`` and ``attunebench compare``: a folder of run outputs -> the report
the admin builds for a run (same report.json, same report.html), or its comparison printed.

Imported by cli.py only when one of these commands runs (they load pandas and numpy).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from attunebench.instrument import Instrument, default_instrument, load_instrument
from attunebench.prompts import load_prompt_set
from attunebench.release import (
    DataFolderError,
    ReleaseIdentity,
    SourcedConversation,
    load_conversations,
    release_identity,
)
from attunebench.report import Provenance, Reproducibility
from attunebench.report.build import (
    STATISTICS_OPTIONS,
    Analysis,
    ReportOptions,
    analyse,
    write_report_folder,
)
from attunebench.report.configurations import (
    ModelConfiguration,
    benchmark_system_prompt_sha256,
    model_configuration,
)
from attunebench.report.reproducibility import package_engine_version
from attunebench.run_config import RUN_CONFIG_FILE, read_run_config
from attunebench.run_output import RunOutput
from attunebench.runner import RunOptions
from attunebench.score_folder import read_runs
from attunebench.stats.results import Statistics
from attunebench.tables import Cell, format_table

# (headers, rows) for format_table.
Table = tuple[Sequence[str], list[Sequence[Cell]]]


class RunsFolder:
    """The run outputs of a folder, read once, with what a report needs to know about them."""

    def __init__(self, runs: Path) -> None:
        if not runs.is_dir():
            raise DataFolderError(f"no runs folder at {runs}")
        self.config = read_run_config(runs / RUN_CONFIG_FILE)  # {} when none was recorded
        self.outputs, self.unreadable = read_runs(runs)
        if not self.outputs:
            raise DataFolderError(f"no run outputs in {runs}")
        self.models = sorted({o.em_model or "" for _, o in self.outputs})
        self.modes = tuple(sorted({o.mode or "default" for _, o in self.outputs}))
        self.prompt_version = self._one(
            "prompt version", {o.prompt_version or "" for _, o in self.outputs}
        )
        strategies = {
            o.post_conversation.panas_strategy for _, o in self.outputs if o.post_conversation
        }
        self.panas_strategy = self._one(
            "PANAS strategy", {s or "absolute" for s in strategies} or {"absolute"}
        )
        self.judges = sorted(
            {
                judge
                for _, output in self.outputs
                for turn in output.turns
                for judge in (turn.em_draft_binary_assessment_by_model or {})
            }
        )

    @staticmethod
    def _one(what: str, values: set[str]) -> str:
        if len(values) != 1:
            raise DataFolderError(f"the runs differ in their {what} ({', '.join(sorted(values))})")
        return values.pop()

    def items(self) -> list[tuple[str, RunOutput]]:
        return self.outputs

    def named(self, role: str) -> list[tuple[str, str]]:
        """(name, model string) of the models (``role`` "models") or judges ("judges"), by
        name: the alias run_config.json records for a model string, else the string itself."""
        recorded = self.config.get(role) or {}
        strings = self.models if role == "models" else self.judges
        return sorted((str((recorded.get(m) or {}).get("alias") or m), m) for m in strings)

    def configurations(self) -> tuple[ModelConfiguration, ...]:
        """Every model's then every judge's configuration as run_config.json records it, as the
        admin's report states them (none without a record: outputs of another tool)."""
        if not self.config:
            return ()
        prompt_set = str(self.config.get("prompt_set") or RunOptions().prompt_set)
        prompts = benchmark_system_prompt_sha256(load_prompt_set(prompt_set))
        found = []
        for role, key in (("model", "models"), ("judge", "judges")):
            recorded = self.config.get(key) or {}
            for name, model in self.named(key):
                if (entry := recorded.get(model)) is not None:
                    found.append(
                        model_configuration(
                            role,
                            {**entry, "alias": name, "model": model},
                            system_prompt_sha256=prompts[role],
                            system_prompt_version=self.prompt_version,
                        )
                    )
        return tuple(found)


def analyse_folder(
    args: argparse.Namespace,
) -> tuple[Sequence[SourcedConversation], RunsFolder, ReportOptions, Analysis]:
    conversations = load_conversations(args.data, args.subsample)
    runs = RunsFolder(args.runs)
    options = ReportOptions(
        seed=args.seed,
        modes=runs.modes,
        judged=bool(runs.judges),
        statistics_options={name: getattr(args, name) for name in STATISTICS_OPTIONS},
    )
    return (
        conversations,
        runs,
        options,
        analyse(conversations, runs.items, instrument_of(args), options),
    )


def report_command(args: argparse.Namespace) -> int:
    conversations, runs, options, analysis = analyse_folder(args)
    release = release_identity(args.data)
    files = write_report_folder(
        analysis,
        args.out,
        Provenance(release.content_hash, runs.prompt_version, args.run_id),
        cli_reproducibility(args, release, runs, options, analysis),
    )
    for note in runs.unreadable:
        print(f"skipped {note}", file=sys.stderr)
    print(f"report of {len(runs.outputs)} run outputs on {len(conversations)} conversations")
    print(format_table(*leaderboard_table(analysis.statistics)))
    print(f"wrote {files.json}, {files.html}, {files.csv}")
    return 0


def compare_command(args: argparse.Namespace) -> int:
    _, _, _, analysis = analyse_folder(args)
    print(format_table(*leaderboard_table(analysis.statistics)))
    print()
    print(format_table(*pairs_table(analysis.statistics, args.axis)))
    return 0


def leaderboard_table(statistics: Statistics, axis: str = "composite") -> Table:
    """Models of the leading mode by mean on ``axis``, with the interval and the rank's range."""
    mode = statistics.settings["primary_mode"]
    rows = [e for e in statistics.estimates if e.mode == mode and e.axis == axis]
    rows.sort(key=lambda e: (e.mean is None, -(e.mean or 0.0), e.model))
    headers = ("model", f"{axis} mean", "95% CI", "n", "rank (range)")
    body: list[Sequence[Cell]] = [
        (
            e.model + (" (baseline)" if e.baseline else ""),
            _number(e.mean),
            f"{_number(e.ci_low)} to {_number(e.ci_high)}",
            str(e.n),
            f"{e.rank} ({e.rank_low}-{e.rank_high})" if e.rank is not None else "",
        )
        for e in rows
    ]
    return headers, body


def pairs_table(statistics: Statistics, axis: str) -> Table:
    headers = ("model A", "model B", "A - B", "95% CI", "p (Holm)", "distinguished")
    body: list[Sequence[Cell]] = [
        (
            p.model_a,
            p.model_b,
            _number(p.difference),
            f"{_number(p.ci_low)} to {_number(p.ci_high)}",
            _number(p.p_holm, 4),
            "yes" if p.distinguished else "no",
        )
        for p in statistics.pairs
        if p.axis == axis
    ]
    return headers, body


def cli_reproducibility(
    args: argparse.Namespace,
    release: ReleaseIdentity,
    runs: RunsFolder,
    options: ReportOptions,
    analysis: Analysis,
) -> Reproducibility:
    """The reproducibility block, with the two ``attunebench`` commands that re-run it."""
    run = ["attunebench", "run", "--data", str(args.data)]
    for model in runs.models:
        run += ["--model", model]
    for mode in runs.modes:
        run += ["--mode", mode]
    for judge in runs.judges:
        run += ["--judge", judge]
    run += ["--panas-strategy", runs.panas_strategy]
    if args.subsample:
        run += ["--subsample", args.subsample]
    run += ["--out", str(args.runs)]
    report = ["attunebench", "report", "--data", str(args.data), "--runs", str(args.runs)]
    report += ["--seed", str(args.seed), "--out", str(args.out)]
    report += ["--" + n.replace("_", "-") for n, on in options.statistics().items() if on]
    judges = runs.named("judges")
    return Reproducibility(
        release_name=release.name,
        release_version=release.version,
        release_hash=release.content_hash,
        prompt_version=runs.prompt_version,
        engine_version=package_engine_version(),
        scoring_options=analysis.scored.options.as_dict(),
        statistics_options=options.statistics(),
        seeds={
            "statistics and baselines": args.seed,
            "pairwise presentation": RunOptions().pairwise_seed,
        },
        judges=tuple(name for name, _ in judges),
        judge_models=tuple(model for _, model in judges),
        models=tuple(name for name, _ in runs.named("models")),
        modes=runs.modes,
        panas_strategy=runs.panas_strategy,
        subsample=args.subsample or "",
        command=f"{shlex.join(run)} && {shlex.join(report)}",
        rerun_note=(
            "Needs the models' endpoints (add --api-base and --api-key-env for an "
            "OpenAI-compatible server); the call cache in the runs folder answers calls "
            "already made."
        ),
        configurations=runs.configurations(),
    )


def instrument_of(args: argparse.Namespace) -> Instrument:
    if args.instrument is None:
        return default_instrument()
    try:
        return load_instrument(json.loads(args.instrument.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise DataFolderError(f"cannot read the instrument {args.instrument}: {exc}") from None


def _number(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"
