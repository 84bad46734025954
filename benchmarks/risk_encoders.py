"""The risk model's sentence encoder, candidates side by side in one run: the numpy fp32 forward
pass (``risk_encoder_numpy.py``, the reference) and ONNX Runtime's graph (``risk_encoder.py``) in
fp32, int8 with a scale per matrix (int8/t) and int8 with a scale per output column (int8).

    OMP_NUM_THREADS=1 python benchmarks/risk_encoders.py [--rounds N] [--seeds N] [--no-quality]

For each candidate: load time (an int8 graph's first load quantizes it into the cache, later
ones read it); CPU time per message of ``embed_one`` over every training corpus message, and of
those the short ones (at most 32 word pieces), and over long ones (12 messages joined, truncated
at ``MAX_TOKENS``) -- p50, p99, max; rounds take the candidates in turn, each over the whole set,
in a rotated order (its weights stay warm in the CPU's cache, as in a process that runs one
encoder); the cosine of its vector to the reference's, per message (min, mean); then the
classifier's out-of-fold quality on its embeddings (``risk_training``'s group folds and support
vector machine): ROC AUC, and the share of near-miss and plain everyday messages flagged, with
the lexicon, at 95% recall. Every candidate is cross-validated on the same folds (groups from
the reference's vectors) for the trainer's seed and ``--seeds`` - 1 more: the spread over seeds
is the noise a candidate's figures are read against.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

import _setup
import numpy as np

from annotations.text_checks.lexicons import RISK_PATTERN, matches
from annotations.text_checks.risk_corpus import read_examples, training_files
from annotations.text_checks.risk_encoder import (
    DIMENSIONS,
    MAX_TOKENS,
    Encoder,
    model_folder,
    read_encoder,
)
from annotations.text_checks.risk_encoder_numpy import NumpyEncoder, read_numpy_encoder
from annotations.text_checks.risk_training import (
    NEAR_MISS,
    SEED,
    deduplicated,
    fold_decisions,
    groups,
)

RECALL = 0.95
CANDIDATES: dict[str, Callable[[], Encoder | NumpyEncoder]] = {
    "numpy fp32": read_numpy_encoder,
    "onnx fp32": lambda: read_encoder(model_folder(), "fp32"),
    "onnx int8/t": lambda: read_encoder(model_folder(), "int8-per-tensor"),
    "onnx int8": lambda: read_encoder(model_folder(), "int8"),  # per channel: the chosen one
}
REFERENCE = "numpy fp32"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def timed(encoder: Encoder | NumpyEncoder, texts: list[str]) -> tuple[list[float], np.ndarray]:
    """Thread CPU time per message in ms (ONNX Runtime runs on the calling thread: one intra-op
    thread), and the vectors."""
    vectors = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
    times = []
    for i, text in enumerate(texts):
        started = time.thread_time()
        vectors[i] = encoder.embed_one(text)
        times.append((time.thread_time() - started) * 1000)
    return times, vectors


def flagged_at_recall(
    decision: np.ndarray, y: np.ndarray, lexicon: np.ndarray, near_miss: np.ndarray
) -> tuple[float, float]:
    """The near-miss and plain everyday shares flagged by lexicon or model at the highest
    threshold where they catch ``RECALL`` of the risk messages."""
    risk = y == 1
    needed = np.sort(decision[risk & ~lexicon])
    allowed_misses = int(np.floor((1 - RECALL) * risk.sum() + 1e-9))
    threshold = needed[allowed_misses] if allowed_misses < needed.size else np.inf
    flagged = lexicon | (decision >= threshold)
    everyday = ~risk
    return (
        float(flagged[everyday & near_miss].mean()),
        float(flagged[everyday & ~near_miss].mean()),
    )


def main() -> None:
    parser = _setup.argument_parser(__doc__)
    parser.add_argument("--rounds", type=int, default=2, help="Passes over the corpus (2)")
    parser.add_argument("--seeds", type=int, default=5, help="Fold seeds for the quality (5)")
    parser.add_argument("--no-quality", action="store_true", help="Cost and agreement only")
    options = parser.parse_args()

    encoders = {}
    for name, read in CANDIDATES.items():
        started = time.perf_counter()
        encoders[name] = read()
        print(f"{name:11} load {time.perf_counter() - started:6.2f} s")

    examples = deduplicated(read_examples(training_files()))
    texts = [e.text for e in examples]
    reference = encoders[REFERENCE]
    is_short = np.array([len(reference.token_ids(t)) <= 32 for t in texts])
    long = [" ".join(texts[i : i + 12]) for i in range(0, min(len(texts), 1200), 12)]

    cpu: dict[tuple[str, str], list[float]] = {}
    vectors: dict[str, np.ndarray] = {}
    long_vectors: dict[str, np.ndarray] = {}
    names = list(encoders)
    for round_ in range(options.rounds):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            times, vectors[name] = timed(encoders[name], texts)
            long_times, long_vectors[name] = timed(encoders[name], long)
            cpu.setdefault((name, f"all {len(texts)}"), []).extend(times)
            short = [t for t, s in zip(times, is_short, strict=True) if s]
            cpu.setdefault((name, f"short {int(is_short.sum())}"), []).extend(short)
            cpu.setdefault((name, f"long {len(long)} (cut at {MAX_TOKENS})"), []).extend(long_times)
    print(f"\nCPU ms per message (embed_one), {options.rounds} rounds, OMP_NUM_THREADS=1:")
    for label in dict.fromkeys(label for _, label in cpu):
        for name in names:
            times = cpu[name, label]
            print(
                f"  {label:24} {name:11} p50 {statistics.median(times):7.2f}  "
                f"p99 {percentile(times, 0.99):7.2f}  max {max(times):7.2f}"
            )

    print(f"\ncosine to {REFERENCE}, per message (min / mean):")
    for name in names:
        if name != REFERENCE:
            every = (vectors[name] * vectors[REFERENCE]).sum(axis=1)
            longs = (long_vectors[name] * long_vectors[REFERENCE]).sum(axis=1)
            print(
                f"  {name:11} training messages {every.min():.5f} / {every.mean():.5f}; "
                f"long {longs.min():.5f} / {longs.mean():.5f}"
            )
    if options.no_quality:
        return

    from sklearn.metrics import roc_auc_score

    y = np.array([e.risk for e in examples], dtype=int)
    lexicon = np.array([bool(matches(RISK_PATTERN, t)) for t in texts])
    near_miss = np.array([e.category == NEAR_MISS for e in examples])
    fold_groups = groups(examples, vectors[REFERENCE])
    seeds = [SEED + k for k in range(options.seeds)]
    print(
        f"\nout of fold ({len(texts)} messages, group folds, seeds {seeds[0]}..{seeds[-1]}): "
        f"ROC AUC; near-miss / plain flagged with the lexicon at {RECALL:.0%} recall"
    )
    for name in names:
        figures = []
        for seed in seeds:
            decision = fold_decisions(vectors[name], y, fold_groups, seed)
            figures.append(
                (roc_auc_score(y, decision), *flagged_at_recall(decision, y, lexicon, near_miss))
            )
        table = np.array(figures)
        first, mean, low, high = table[0], table.mean(axis=0), table.min(axis=0), table.max(axis=0)
        print(
            f"  {name:11} seed {SEED}: AUC {first[0]:.4f}, {first[1]:.1%} / {first[2]:.1%}; "
            f"over seeds: AUC {mean[0]:.4f} [{low[0]:.4f}, {high[0]:.4f}], near-miss "
            f"{mean[1]:.1%} [{low[1]:.1%}, {high[1]:.1%}], plain {mean[2]:.1%} "
            f"[{low[2]:.1%}, {high[2]:.1%}]"
        )


if __name__ == "__main__":
    sys.exit(main())
