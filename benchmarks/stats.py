"""Seconds for the full statistics of a run: 11 models x 200 conversations, 10,000 resamples.

    .venv/bin/python benchmarks/stats.py [--models 11] [--conversations 200]
        [--resamples 10000] [--permutations 10000] [--repeat 3] [--report DIR]

Synthetic scores with planted effects (``attunebench.stats.synthetic``): the default
mode plus the verbose and omniscient modes for every model, four baselines, five grouping
columns (three trait groups, topic, original model), parse-failure counts, and yes/no answers
of the participant and two judges on every applicable question (for judge reliability).
Prints seconds per part (median over the repeats) and the total; the goal is under 5 s.
"""

from __future__ import annotations

import statistics as py_statistics
import time
from pathlib import Path

import numpy as np
import pandas as pd
from _setup import argument_parser  # also puts the project on sys.path for the imports below

from attunebench.report import Provenance, write_report
from attunebench.stats import StatsConfig, compute_statistics
from attunebench.stats.synthetic import synthetic_scores

BASELINES = ("baseline/random", "baseline/majority", "baseline/no_change", "baseline/always_a")


def judge_answers(conversations: int, seed: int) -> pd.DataFrame:
    """Participant + two judges, 5 turns x 6 questions per conversation; judges agree ~80%."""
    rng = np.random.default_rng(seed)
    keys = pd.MultiIndex.from_product(
        [[f"conv-{i:04d}" for i in range(conversations)], range(1, 6), [f"q{q}" for q in range(6)]],
        names=["conversation_id", "turn_number", "question_id"],
    ).to_frame(index=False)
    truth = rng.random(len(keys)) < 0.3
    frames = []
    for rater, flip in (("participant", 0.0), ("judge-a", 0.15), ("judge-b", 0.25)):
        answer = truth ^ (rng.random(len(keys)) < flip)
        frames.append(
            keys.assign(target="human_edited", rater=rater, answer=np.where(answer, "yes", "no"))
        )
    return pd.concat(frames, ignore_index=True)


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--models", type=int, default=11)
    parser.add_argument("--conversations", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--permutations", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--report", type=Path, help="also write the report folder here (timed apart)"
    )
    args = parser.parse_args()

    frame = synthetic_scores(
        n_models=args.models,
        n_conversations=args.conversations,
        seed=1,
        modes=("default", "verbose", "omniscient"),
        baselines=BASELINES,
    )
    answers = judge_answers(args.conversations, seed=2)
    config = StatsConfig(seed=1, n_resamples=args.resamples, n_permutations=args.permutations)
    print(
        f"{args.models} models x {args.conversations} conversations, 3 modes, {len(BASELINES)} baselines "
        f"({len(frame)} score rows), {args.resamples:,} resamples, {args.permutations:,} permutations, "
        f"{len(answers):,} judge answers"
    )
    runs = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        result = compute_statistics(frame, config, judge_answers=answers)
        runs.append((time.perf_counter() - started, result.timings))
    parts = [name for name in runs[0][1] if name != "total"]
    for name in parts:
        print(f"  {name:<22} {py_statistics.median(t[name] for _, t in runs):6.3f} s")
    totals = [seconds for seconds, _ in runs]
    print(
        f"  {'total (wall)':<22} {py_statistics.median(totals):6.3f} s  "
        f"(median of {len(totals)}; min {min(totals):.3f} s)"
    )
    pairs = [d for d in result.discriminability if d.axis == "composite"][0]
    print(f"composite: {pairs.n_distinguished} of {pairs.n_pairs} pairs distinguished")
    if args.report:
        started = time.perf_counter()
        write_report(result, args.report, Provenance("synthetic", "bench", "benchmarks/stats.py"))
        print(f"  {'write_report':<22} {time.perf_counter() - started:6.3f} s  -> {args.report}")
    print(
        f"SUMMARY total={py_statistics.median(totals):.2f}s goal=5s models={args.models} "
        f"conversations={args.conversations} resamples={args.resamples}"
    )


if __name__ == "__main__":
    main()
