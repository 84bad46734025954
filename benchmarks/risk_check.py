"""The risk check (annotations/text_checks/risk.py): its cost, and its figures on held-out text.

    python benchmarks/risk_check.py [--rounds N] [--show-false-alarms] [--no-latency]
        [--heldout FILE ... | --no-heldout] [--language es]

Prints the model's load time and memory (the process's resident set before and after), then the
latency of ``assess`` and ``is_risk`` over every training corpus message, the short ones and
long ones (p50, p99, max, in wall and CPU time; the goal is p99 under 5 ms; run it with
OMP_NUM_THREADS=1: one core per check), then, for each ``heldout_*.jsonl`` of the corpus folder, recall per risk
category and the share of everyday messages flagged per category, for the lexicon alone and for
the combined check, and which signal caught what. Held-out texts are never printed except the
risk messages missed (recorded, not patched; the check is never tuned on them), and the everyday
ones flagged with --show-false-alarms.

``--language es`` (or ``de``) measures another language's check instead, as a participant in
that language gets it (``risk.assess(text, "es")``: its lexicon, the English phrases and the
language's model, ``risk_model.es.json``; a language without a model gets the lexicon alone,
and no load or latency is measured): the latency over that language's training corpus, and the
held-out files of its corpus folder (``risk_corpus/es/heldout_*.jsonl``).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import _setup

from annotations.text_checks import risk
from annotations.text_checks.risk_corpus import (
    HELDOUT_GLOB,
    Example,
    language_folder,
    read_examples,
    training_files,
)
from annotations.text_checks.risk_encoder import MAX_TOKENS, load_encoder


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def latency(texts: list[str], rounds: int, label: str = "", language: str = "en") -> None:
    """Wall time per call, and the thread's CPU time per call: on a shared, loaded machine the
    wall-clock tail is mostly the scheduler's (a preempted call waits a time slice)."""
    for name, check in (("assess", risk.assess), ("is_risk", risk.is_risk)):
        wall, cpu = [], []
        for _ in range(rounds):
            for text in texts:
                started, started_cpu = time.perf_counter(), time.thread_time()
                check(text, language)
                cpu.append((time.thread_time() - started_cpu) * 1000)
                wall.append((time.perf_counter() - started) * 1000)
        for kind, times in (("wall", wall), ("cpu", cpu)):
            print(
                f"{name:8} {kind:4} {label}over {len(texts)} messages x {rounds}: p50 "
                f"{statistics.median(times):.3f} ms, p99 {percentile(times, 0.99):.3f} ms, "
                f"max {max(times):.3f} ms"
            )


def by_length(texts: list[str]) -> tuple[list[str], list[str]]:
    """Short messages (at most 32 word pieces, most chat turns) and long ones: training
    messages joined three by three up to past the encoder's truncation (``MAX_TOKENS``)."""
    encoder = load_encoder()
    short = [t for t in texts if len(encoder.token_ids(t)) <= 32]
    long = [" ".join(texts[i : i + 12]) for i in range(0, min(len(texts), 1200), 12)]
    return short, long


def held_out(path: Path, show_false_alarms: bool, language: str = "en") -> None:
    examples = read_examples([path])
    print(
        f"\n{path.name}: {sum(e.risk for e in examples)} risk, "
        f"{sum(not e.risk for e in examples)} everyday messages"
    )
    # category -> [combined hits, lexicon hits, model-only hits, borderline hits, total]
    table: dict[tuple[bool, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    missed: list[Example] = []
    alarms: list[Example] = []
    for example in examples:
        assessment = risk.assess(example.text, language)
        row = table[example.risk, example.category]
        row[0] += assessment.risk
        row[1] += bool(assessment.phrases)
        row[2] += assessment.signal == risk.MODEL
        row[3] += assessment.borderline
        row[4] += 1
        if example.risk and not assessment.risk:
            missed.append(example)
        if not example.risk and assessment.risk:
            alarms.append(example)
    for is_risk, label in ((True, "recall"), (False, "flagged")):
        rows = {c: r for (k, c), r in sorted(table.items()) if k == is_risk}
        total = [sum(r[i] for r in rows.values()) for i in range(5)]
        print(
            f"  {'risk' if is_risk else 'everyday'} ({label}: combined | lexicon alone; "
            "caught by the model alone, of which borderline)"
        )
        for category, r in [*rows.items(), ("all", total)]:
            if r[4]:
                print(
                    f"    {category:24} {r[0]:4}/{r[4]:<4} {r[0] / r[4]:6.1%} | "
                    f"{r[1] / r[4]:6.1%}   model alone {r[2]}, borderline {r[3]}"
                )
    for example in missed:
        print(f"  MISSED ({example.category}): {example.text}")
    if show_false_alarms:
        for example in alarms:
            print(f"  FLAGGED ({example.category}): {example.text}")


def main() -> None:
    parser = _setup.argument_parser(__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="Passes over the corpus (3)")
    parser.add_argument("--show-false-alarms", action="store_true")
    parser.add_argument("--no-latency", action="store_true", help="Held-out figures only")
    parser.add_argument(
        "--heldout", type=Path, nargs="*", help="Held-out files (default: the corpus folder's)"
    )
    parser.add_argument(
        "--language", default="en", help="The language's check and held-out files (en)"
    )
    parser.add_argument(
        "--no-heldout", action="store_true", help="Cost only: no held-out file is read"
    )
    options = parser.parse_args()
    folder = language_folder(options.language)
    heldout = options.heldout or sorted(folder.glob(HELDOUT_GLOB))
    if risk.model_for(options.language) is None:
        print(f"{options.language}: no learned model reads it; the lexicon alone")
        for path in heldout:
            held_out(path, options.show_false_alarms, options.language)
        if not heldout:
            print(f"\nno {HELDOUT_GLOB} in {folder}: no held-out figures")
        return
    before = rss_mb()
    started = time.perf_counter()
    model = risk.model_for(options.language)
    assert model is not None
    loaded = time.perf_counter() - started
    print(
        f"model load: {loaded * 1000:.0f} ms, resident memory +{rss_mb() - before:.0f} MB "
        f"(thresholds: check-in {model.thresholds.check_in}, flag {model.thresholds.flag})"
    )
    if not options.no_latency:
        texts = [e.text for e in read_examples(training_files(folder))]
        latency(texts, options.rounds, language=options.language)
        short, long = by_length(texts)
        latency(short, options.rounds, "short (<= 32 pieces) ", options.language)
        latency(long, 1, f"long (truncated at {MAX_TOKENS} pieces) ", options.language)
    if options.no_heldout:
        return
    if not heldout:
        print(f"\nno {HELDOUT_GLOB} in {folder}: no held-out figures")
    for path in heldout:
        held_out(path, options.show_false_alarms, options.language)


if __name__ == "__main__":
    sys.exit(main())
