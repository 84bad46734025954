"""Training the risk model (``risk.py``) from the corpus: reproducible, pure (no Django).

``train(files)`` reads the ``train_*.jsonl`` files, embeds every message with all-MiniLM-L6-v2
(``risk_encoder.py``), fits a support vector machine with an RBF kernel on the standardised
embeddings (classes weighted to balance; deterministic) and returns the artefact ``risk.py``
reads: the scaler, the support vectors (float16) and their coefficients, a Platt calibration
(the score is a probability), two thresholds, the corpus's hash, and the cross-validated
figures they were chosen from. Measured on the same group folds, this beat a logistic
regression over MiniLM, WordLlama, both, word or character TF-IDF and a small MLP
(docs/benchmarks.md).

The thresholds are chosen on out-of-fold scores (five folds, near copies kept in one fold:
every message scored by a model that never saw it nor a variant of it), for the combined check
(lexicon or model):
* ``check_in``: chosen for recall, the highest threshold at which lexicon or model catch
  ``CHECK_IN_RECALL`` of the risk messages out of fold. Between it and ``flag`` a message is
  borderline: QA gets a flag (a false alarm costs a reviewer a glance; a miss leaves a person in
  crisis without one), the participant is not shown crisis resources on a guess;
* ``flag``: chosen for precision, the lowest threshold at which at most ``FLAG_BUDGET`` of the
  near-miss and of the other everyday messages are flagged out of fold (the issue's bars for
  held-out text: 10% and 2%). At or above it the participant sees the support resources, the
  study's contacts are told and QA's flag blocks approval until a reviewer looks.
A message whose WordLlama embedding is a near copy of a training risk message (cosine at least
``NEIGHBOUR_SIMILARITY``) is risk at the flag level too: it keeps every training risk message
caught, and names the neighbour QA sees. The artefact records what each threshold caught and
cost, out of fold, per category.
"""

from __future__ import annotations

import base64
import json
import math
import os
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from annotations.text_checks.lexicons import RISK_PATTERN, matches
from annotations.text_checks.normalise import normalise
from annotations.text_checks.risk_corpus import (
    CorpusError,
    Example,
    corpus_hash,
    file_hashes,
    read_examples,
)
from annotations.text_checks.risk_embedding import (
    DIMENSIONS,
    MODEL_NAME,
    wordllama_version,
)
from annotations.text_checks.risk_encoder import DIMENSIONS as ENCODER_DIMENSIONS
from annotations.text_checks.risk_encoder import MAX_TOKENS, Encoder, encoder_version, load_encoder
from annotations.text_checks.risk_encoder import PACKAGE as ENCODER_PACKAGE

SEED = 20240645
FOLDS = 5
# The RBF support vector machine's C: 10 gave the best out-of-fold recall at the near-miss
# budget among 1, 3 and 10 (group folds; docs/benchmarks.md has the comparison).
C = 10.0
GROUP_SIMILARITY = 0.9


@dataclass(frozen=True)
class Budget:
    near_miss: float  # at most this share of near-miss everyday messages flagged, out of fold
    other: float  # and of the other everyday messages


CHECK_IN_RECALL = 0.97
FLAG_BUDGET = Budget(near_miss=0.10, other=0.02)
NEIGHBOUR_SIMILARITY = 0.93
NEAR_MISS = "near_miss"
LANGUAGE = "en"
FORMAT = 2


def train(files: list[Path], encoder: Encoder | None = None) -> dict[str, Any]:
    from sklearn.linear_model import LogisticRegression

    examples = deduplicated(read_examples(files))
    y = np.array([e.risk for e in examples], dtype=int)
    counts = Counter(y.tolist())
    if min(counts[0], counts[1]) < FOLDS:
        raise CorpusError(
            f"the corpus needs at least {FOLDS} risk and {FOLDS} everyday messages "
            f"(has {counts[1]} and {counts[0]})"
        )
    encoder = encoder or load_encoder()
    X = encoder.embed([e.text for e in examples])
    lexicon = np.array([bool(matches(RISK_PATTERN, e.text)) for e in examples])
    decision = fold_decisions(X, y, groups(examples, X))
    # Platt scaling on the out-of-fold decision values: the score is a probability.
    platt = LogisticRegression(C=1e6, max_iter=5000).fit(decision.reshape(-1, 1), y)
    slope, offset = float(platt.coef_[0][0]), float(platt.intercept_[0])
    if slope <= 0:
        # Out of fold the decision does not rank risk above everyday (a corpus far too small):
        # a falling calibration would invert the model. The plain logistic of the decision.
        slope, offset = 1.0, 0.0
    out_of_fold = _probability(slope * decision + offset)

    scaler, svm = _fit(X, y)
    support = svm.support_vectors_.astype(np.float16)
    classifier = {
        "kind": "rbf_svm",
        "gamma": float(svm._gamma),
        "mean": [float(f"{v:.7g}") for v in scaler.mean_],
        "scale": [float(f"{v:.7g}") for v in scaler.scale_],
        "support_vectors": base64.b64encode(support.tobytes()).decode("ascii"),
        "support_shape": list(support.shape),
        "dual_coef": [float(f"{v:.7g}") for v in svm.dual_coef_[0]],
        "intercept": float(f"{svm.intercept_[0]:.7g}"),
        "calibration": {"slope": float(f"{slope:.7g}"), "intercept": float(f"{offset:.7g}")},
    }

    near_miss = np.array([e.category == NEAR_MISS for e in examples])
    flag = _precise_threshold(out_of_fold, y, lexicon, near_miss)
    check_in = min(_recall_threshold(out_of_fold, y, lexicon), flag)

    return {
        "format": FORMAT,
        "language": LANGUAGE,
        "encoder": {
            "package": ENCODER_PACKAGE,
            "version": encoder_version(),
            "dimensions": ENCODER_DIMENSIONS,
            "max_tokens": MAX_TOKENS,
        },
        "embedding": {
            "model": MODEL_NAME,
            "dimensions": DIMENSIONS,
            "wordllama": wordllama_version(),
        },
        "classifier": classifier,
        "thresholds": {
            "flag": flag,
            "check_in": check_in,
            "neighbour_similarity": NEIGHBOUR_SIMILARITY,
        },
        "threshold_rule": (
            f"out of fold, lexicon or model: check_in catches >= {CHECK_IN_RECALL} of risk "
            f"messages; flag flags <= {FLAG_BUDGET.near_miss} of near-miss and <= "
            f"{FLAG_BUDGET.other} of other everyday messages; a message at cosine >= "
            f"{NEIGHBOUR_SIMILARITY} of a training risk message is flagged"
        ),
        "corpus": {"sha256": corpus_hash(files), "files": file_hashes(files)},
        "training": {
            "seed": SEED,
            "folds": FOLDS,
            "fold_groups": f"near copies together (same normalised text, MiniLM cosine >= "
            f"{GROUP_SIMILARITY})",
            "C": C,
            "class_weight": "balanced",
        },
        "counts": _counts(examples),
        "cross_validation": _figures(examples, out_of_fold, lexicon, flag, check_in),
        "neighbours": [{"text": e.text, "category": e.category} for e in examples if e.risk],
    }


def _fit(X: np.ndarray, y: np.ndarray) -> tuple[Any, Any]:
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    scaler = StandardScaler().fit(X)
    svm = SVC(C=C, kernel="rbf", gamma="scale", class_weight="balanced")
    return scaler, svm.fit(scaler.transform(X), y)


def fold_decisions(
    X: np.ndarray, y: np.ndarray, fold_groups: np.ndarray, seed: int = SEED
) -> np.ndarray:
    """The support vector machine's decision value of every message, out of fold: scored by a
    model that never saw it nor a near copy of it (``FOLDS`` group folds)."""
    from sklearn.model_selection import StratifiedGroupKFold

    decision = np.zeros(len(y))
    folds = StratifiedGroupKFold(FOLDS, shuffle=True, random_state=seed)
    for train_rows, test_rows in folds.split(X, y, fold_groups):
        scaler, svm = _fit(X[train_rows], y[train_rows])
        decision[test_rows] = svm.decision_function(scaler.transform(X[test_rows]))
    return decision


def groups(examples: list[Example], vectors: np.ndarray) -> np.ndarray:
    """Fold groups: messages with the same normalised text or a MiniLM cosine of at least
    ``GROUP_SIMILARITY`` are one group (connected components), so no fold is scored by a model
    trained on a near copy of its messages (the corpus writes variants of a phrasing)."""
    parent = list(range(len(examples)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    similar = np.triu(vectors @ vectors.T, 1) >= GROUP_SIMILARITY
    pairs = list(zip(*np.nonzero(similar), strict=True))
    first: dict[str, int] = {}
    for i, example in enumerate(examples):
        pairs.append((first.setdefault(normalise(example.text), i), i))
    for i, j in pairs:
        parent[root(int(i))] = root(int(j))
    return np.array([root(i) for i in range(len(examples))])


def deduplicated(examples: list[Example]) -> list[Example]:
    """One example per text; a text labelled both ways is an error in the corpus."""
    seen: dict[str, Example] = {}
    for example in examples:
        earlier = seen.setdefault(example.text, example)
        if earlier.risk != example.risk:
            raise CorpusError(f"{example.source}: labelled differently at {earlier.source}")
    return list(seen.values())


def _probability(logits: np.ndarray) -> np.ndarray:
    result: np.ndarray = 1.0 / (1.0 + np.exp(-logits))
    return result


def _floor(value: float) -> float:
    """Rounded down to 4 decimals: a score equal to the exact value still reaches it."""
    return math.floor(value * 10_000) / 10_000


def _ceil_above(value: float) -> float:
    """The smallest 4-decimal number strictly above ``value``."""
    rounded = math.ceil(value * 10_000) / 10_000
    return rounded if rounded > value else rounded + 0.0001


def _recall_threshold(scores: np.ndarray, y: np.ndarray, lexicon: np.ndarray) -> float:
    """The highest threshold at which lexicon or model catch ``CHECK_IN_RECALL`` of the risk
    messages."""
    risk = y == 1
    allowed_misses = math.floor((1 - CHECK_IN_RECALL) * risk.sum() + 1e-9)
    needed = np.sort(scores[risk & ~lexicon])  # the risk messages only the model can catch
    return _floor(float(needed[allowed_misses])) if allowed_misses < needed.size else 1.0


def _precise_threshold(
    scores: np.ndarray, y: np.ndarray, lexicon: np.ndarray, near_miss: np.ndarray
) -> float:
    """The lowest threshold at which lexicon or model flag at most the budget's share of the
    near-miss and of the other everyday messages (1.0 when the lexicon alone exceeds it)."""
    threshold = 0.0
    for group, budget in ((near_miss, FLAG_BUDGET.near_miss), (~near_miss, FLAG_BUDGET.other)):
        members = (y == 0) & group
        allowed = math.floor(budget * members.sum() + 1e-9) - int((lexicon & members).sum())
        alarms = np.sort(scores[members & ~lexicon])[::-1]  # the model's, highest first
        if allowed < 0:
            return 1.0
        if allowed < alarms.size:
            threshold = max(threshold, min(_ceil_above(float(alarms[allowed])), 1.0))
    return threshold


def _counts(examples: list[Example]) -> dict[str, Any]:
    by_category: dict[str, Counter[str]] = defaultdict(Counter)
    for e in examples:
        by_category["risk" if e.risk else "everyday"][e.category] += 1
    return {
        "risk": sum(by_category["risk"].values()),
        "everyday": sum(by_category["everyday"].values()),
        "by_category": {label: dict(sorted(c.items())) for label, c in by_category.items()},
    }


def _figures(
    examples: list[Example], scores: np.ndarray, lexicon: np.ndarray, flag: float, check_in: float
) -> dict[str, Any]:
    """Out-of-fold figures at each threshold: the model alone and with the lexicon."""
    risk = np.array([e.risk for e in examples])
    figures: dict[str, Any] = {}
    for name, threshold in (("flag", flag), ("check_in", check_in)):
        fired = scores >= threshold
        combined = fired | lexicon
        by_category: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for e, hit in zip(examples, combined, strict=True):
            by_category[("risk:" if e.risk else "everyday:") + e.category][0] += int(hit)
            by_category[("risk:" if e.risk else "everyday:") + e.category][1] += 1
        figures[name] = {
            "model_recall": round(float(fired[risk].mean()), 4),
            "combined_recall": round(float(combined[risk].mean()), 4),
            "everyday_flagged": round(float(combined[~risk].mean()), 4),
            "by_category": {k: f"{v[0]}/{v[1]}" for k, v in sorted(by_category.items())},
        }
    figures["lexicon_alone"] = {
        "recall": round(float(lexicon[risk].mean()), 4),
        "everyday_flagged": round(float(lexicon[~risk].mean()), 4),
    }
    return figures


def write_artefact(artefact: dict[str, Any], path: Path) -> None:
    """Written beside its final place, then renamed: a reader never sees half a file."""
    text = json.dumps(artefact, indent=1, ensure_ascii=False) + "\n"
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
