"""The command line: ``attunebench run|score|report|compare|leaderboard ...`` (``--help``;
also ``python -m attunebench``).

Parsing and printing only; the work is in batch.py (run), score_folder.py (score),
report/build.py (report, compare: cli_report.py) and leaderboard.py (cli_leaderboard.py).
Exit codes: 0 done, 1 a model could not be called at all, 2 bad arguments or data.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from attune_collect.llm import EndpointConfig
from attune_collect.llm._litellm import apply_offline_environment
from attune_collect.llm.types import (
    DEFAULT_MAX_CONCURRENCY,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT_S,
)
from attunebench.batch import (
    GROUP_HEADERS,
    USAGE_HEADERS,
    group_rows,
    plan_units,
    run_batch,
    usage_rows,
)
from attunebench.cache import SQLiteCallCache
from attunebench.cli_arguments import add_leaderboard_parsers, add_report_parsers
from attunebench.executor import CallExecutor
from attunebench.progress import ProgressBar
from attunebench.release import DataFolderError, load_conversations
from attunebench.run_config import write_run_config
from attunebench.runner import MODES, PANAS_STRATEGIES, RunOptions
from attunebench.tables import format_table
from attunebench.workers import (
    WorkerReport,
    parse_shard,
    run_workers,
    shard_units,
    share,
)

DEFAULT_CACHE_NAME = "call_cache.sqlite3"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="attunebench",
        description=(
            "Run models on an AttuneBench release folder, score run outputs, report and "
            "compare them, and keep a standing leaderboard."
        ),
    )
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run models on a release; one JSON per unit")
    run.add_argument("--data", required=True, type=Path, help="release or reference folder")
    run.add_argument("--model", required=True, action="append", help="litellm model (repeat)")
    run.add_argument(
        "--mode", action="append", choices=MODES, help="mode (repeat; default: default)"
    )
    run.add_argument("--judge", action="append", default=[], help="judge model (repeat)")
    run.add_argument("--subsample", help="e.g. sample50 (subsamples/sample50.txt) or a file")
    run.add_argument("--panas-strategy", choices=PANAS_STRATEGIES, default="absolute")
    run.add_argument("--api-base", help="API base URL for every model (e.g. a local server)")
    run.add_argument("--api-key-env", help="name of the variable holding the API key")
    run.add_argument(
        "--force-litellm",
        action="store_true",
        help="call through litellm even models that speak OpenAI's protocol",
    )
    run.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="request parameter for every model, e.g. temperature=0 (JSON values)",
    )
    run.add_argument(
        "--concurrency", type=int, default=DEFAULT_MAX_CONCURRENCY, help="calls in flight per model"
    )
    run.add_argument("--rpm", type=int, help="requests per minute per model")
    run.add_argument("--tpm", type=int, help="tokens per minute per model")
    run.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds per attempt")
    run.add_argument(
        "--max-retries", type=int, default=DEFAULT_MAX_RETRIES, help="retries per call (gateway)"
    )
    run.add_argument("--max-reasks", type=int, default=2, help="re-asks per unusable answer")
    run.add_argument("--cache", type=Path, help=f"call cache (default: OUT/{DEFAULT_CACHE_NAME})")
    run.add_argument("--workers", type=int, default=1, help="engine processes (default 1)")
    run.add_argument("--shard", help=argparse.SUPPRESS)  # INDEX/COUNT: set by --workers
    run.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    run.add_argument("--out", required=True, type=Path, help="folder for the run outputs")

    score = commands.add_parser("score", help="score run outputs against the data")
    score.add_argument("--data", required=True, type=Path, help="release or reference folder")
    score.add_argument("--runs", required=True, type=Path, help="folder of run-output JSON")
    score.add_argument("--out", required=True, type=Path, help="folder for scores.json + Parquet")
    score.add_argument(
        "--compat",
        action="store_true",
        help="also where our rules depart from the reference (all-na turn = 0, VA rounding)",
    )
    score.add_argument(
        "--asked-only",
        action="store_true",
        help="also score behaviour over the asked questions only, reported beside the default",
    )
    score.add_argument("--baseline-seed", type=int, default=0, help="seed of the random baseline")
    _add_later_parsers(commands)
    return parser


def _add_later_parsers(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]  # argparse's private class: its type parameter is not public
    """report, compare, leaderboard (their commands are imported when they run)."""
    add_report_parsers(commands)
    add_leaderboard_parsers(commands)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    try:
        if args.command == "run":
            return run_command(args, argv)
        if args.command == "score":
            return score_command(args)
        return _later_command(args)
    except DataFolderError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _later_command(args: argparse.Namespace) -> int:
    # Imported here: they load pandas and numpy (seconds), which `run` never needs.
    from attunebench import cli_leaderboard, cli_report

    if args.command == "report":
        return cli_report.report_command(args)
    if args.command == "compare":
        return cli_report.compare_command(args)
    return cli_leaderboard.leaderboard_command(args)


def run_command(args: argparse.Namespace, argv: list[str]) -> int:
    apply_offline_environment()  # before anything can import litellm
    conversations = load_conversations(args.data, args.subsample)
    if args.shard is not None:  # a worker of a --workers run: JSON lines on stdout
        report = WorkerReport()
        result, usage = _run_here(args, conversations, parse_shard(args.shard), report)
        report.summary(result, usage)
        return 1 if result.fatal else 0
    _record_config(args)
    progress = None if args.no_progress else ProgressBar(0)
    failures: list[str] = []
    try:
        if args.workers > 1:
            result, usage, failures = run_workers(argv, args.workers, progress)
        else:
            result, usage = _run_here(args, conversations, None, progress)
    finally:
        if progress is not None:
            progress.close()
    units = sum(group.units for group in result.groups.values())
    print(f"{units} units ({len(conversations)} conversations) in {result.wall_s:.1f} s")
    print(format_table(GROUP_HEADERS, group_rows(result)))
    print()
    print(format_table(USAGE_HEADERS, usage_rows(usage)))
    for model, error in result.fatal.items():
        print(f"error: {model} could not be called: {error}", file=sys.stderr)
    for failure in failures:
        print(f"error: {failure}", file=sys.stderr)
    return 1 if result.fatal or failures else 0


def _run_here(
    args: argparse.Namespace,
    conversations: list[Any],
    shard: tuple[int, int] | None,
    progress: Any,
) -> tuple[Any, Any]:
    """Run the units (of this shard) in this process; ``progress`` gets every call."""
    params = _params(args.param)
    whole = shard or (0, 1)

    def spec(model: str) -> EndpointConfig:
        return EndpointConfig(
            model,
            api_base=args.api_base,
            api_key_env=args.api_key_env,
            params=params,
            max_concurrency=share(args.concurrency, whole) or 1,
            requests_per_minute=share(args.rpm, whole),
            tokens_per_minute=share(args.tpm, whole),
            timeout_s=args.timeout,
            max_retries=args.max_retries,
            force_litellm=args.force_litellm,
        )

    options = RunOptions(
        panas_strategy=args.panas_strategy,
        judges=tuple(spec(judge) for judge in args.judge),
        max_reasks=args.max_reasks,
    )
    modes = args.mode or ["default"]
    units = plan_units(conversations, [spec(m) for m in args.model], modes, args.out)
    if shard is not None:
        units = shard_units(units, shard)
    cache = SQLiteCallCache(args.cache or args.out / DEFAULT_CACHE_NAME)
    executor = CallExecutor(cache, on_call=progress.on_call if progress else None)

    on_start = progress.planned if progress else None
    try:
        result = asyncio.run(run_batch(units, options, executor, on_start=on_start))
    finally:
        cache.close()
    return result, executor.usage()


def score_command(args: argparse.Namespace) -> int:
    # Imported here: scoring loads pandas and pyarrow (about 3.5 s), which `run` never needs.
    from attunebench.score_folder import (
        ASKED_ONLY,
        SUMMARY_HEADERS,
        read_runs,
        score_runs,
        summary_rows,
        write_scores,
    )

    if not args.runs.is_dir():
        raise DataFolderError(f"no runs folder at {args.runs}")
    conversations = load_conversations(args.data)
    runs, unreadable = read_runs(args.runs)
    result = score_runs(
        conversations,
        runs,
        compat=args.compat,
        asked_only=args.asked_only,
        baseline_seed=args.baseline_seed,
    )
    paths = write_scores(result, args.out)
    for note in [*unreadable, *result.skipped]:
        print(f"skipped {note}", file=sys.stderr)
    print(f"scored {len(runs)} run outputs on {len(conversations)} conversations")
    asked = result.variants.get(ASKED_ONLY)
    headers = SUMMARY_HEADERS + (("composite (asked only)",) if asked else ())
    rows = summary_rows(result.aggregates, asked.aggregates if asked else None)
    print(format_table(headers, rows))
    print("wrote " + ", ".join(str(path) for path in paths))
    return 0


def _record_config(args: argparse.Namespace) -> None:
    """run_config.json beside the outputs: what a leaderboard entry keeps as configuration."""
    params = _params(args.param)

    def spec(model: str) -> EndpointConfig:
        return EndpointConfig(
            model, api_base=args.api_base, api_key_env=args.api_key_env, params=params
        )

    options = RunOptions()
    write_run_config(
        args.out,
        [spec(m) for m in args.model],
        [spec(j) for j in args.judge],
        args.mode or ["default"],
        args.panas_strategy,
        options.prompt_set,
    )


def _params(pairs: list[str]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise SystemExit(f"--param expects KEY=VALUE, got {pair!r}")
        try:
            params[key.strip()] = json.loads(raw)
        except ValueError:
            params[key.strip()] = raw  # a bare string such as a model name
    return params
