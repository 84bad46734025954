"""Training the risk model (``risk.py``) from the corpus: reproducible, pure (no Django).

``train(files)`` reads the ``train_*.jsonl`` files, embeds every message, fits a logistic
regression (fixed seed, classes weighted to balance) and returns the artefact ``risk.py`` reads:
coefficients and intercept (the standardisation folded in, so inference is one dot product),
two thresholds, the corpus's hash, and the cross-validated figures they were chosen from.

The thresholds are chosen on out-of-fold scores (five folds: every message scored by a model
that never saw it), for the combined check (lexicon or model):
* ``check_in``: chosen for recall, the highest threshold at which lexicon or model catch
  ``CHECK_IN_RECALL`` of the risk messages out of fold. Between it and ``flag`` a message is
  borderline: QA gets a flag (a false alarm costs a reviewer a glance; a miss leaves a person in
  crisis without one), the participant is not shown crisis resources on a guess;
* ``flag``: chosen for precision, the lowest threshold at which at most ``FLAG_BUDGET`` of the
  near-miss and of the other everyday messages are flagged out of fold (the issue's bars for
  held-out text: 10% and 2%). At or above it the participant sees the support resources, the
  study's contacts are told and QA's flag blocks approval until a reviewer looks.
A message whose embedding is a near copy of a training risk message (cosine at least
``NEIGHBOUR_SIMILARITY``) is risk at the flag level too: out of fold that rule flagged no
everyday message, and it keeps every training risk message caught. The artefact records what
each threshold caught and cost, out of fold, per category.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from annotations.text_checks.lexicons import RISK_PATTERN, matches
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
    Embedder,
    load_embedder,
    wordllama_version,
)

SEED = 20240645
FOLDS = 5
C = 0.1  # regularisation: stronger than scikit-learn's default, the corpus is small


@dataclass(frozen=True)
class Budget:
    near_miss: float  # at most this share of near-miss everyday messages flagged, out of fold
    other: float  # and of the other everyday messages


CHECK_IN_RECALL = 0.95
FLAG_BUDGET = Budget(near_miss=0.10, other=0.02)
NEIGHBOUR_SIMILARITY = 0.93
NEAR_MISS = "near_miss"
LANGUAGE = "en"
FORMAT = 1


def train(files: list[Path], embedder: Embedder | None = None) -> dict[str, Any]:
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    examples = _deduplicated(read_examples(files))
    y = np.array([e.risk for e in examples], dtype=int)
    counts = Counter(y.tolist())
    if min(counts[0], counts[1]) < FOLDS:
        raise CorpusError(
            f"the corpus needs at least {FOLDS} risk and {FOLDS} everyday messages "
            f"(has {counts[1]} and {counts[0]})"
        )
    embedder = embedder or load_embedder()
    X = embedder.embed([e.text for e in examples])
    lexicon = np.array([bool(matches(RISK_PATTERN, e.text)) for e in examples])

    def pipeline() -> Any:
        return make_pipeline(
            StandardScaler(),
            LogisticRegression(C=C, class_weight="balanced", max_iter=5000, random_state=SEED),
        )

    folds = StratifiedKFold(FOLDS, shuffle=True, random_state=SEED)
    out_of_fold = cross_val_predict(pipeline(), X, y, cv=folds, method="predict_proba")[:, 1]

    fitted = pipeline().fit(X, y)
    scaler, regression = fitted[0], fitted[1]
    coefficients = regression.coef_[0] / scaler.scale_
    intercept = float(regression.intercept_[0] - coefficients @ scaler.mean_)
    coefficients = np.array([float(f"{c:.7g}") for c in coefficients])
    intercept = float(f"{intercept:.7g}")

    near_miss = np.array([e.category == NEAR_MISS for e in examples])
    flag = _precise_threshold(out_of_fold, y, lexicon, near_miss)
    check_in = min(_recall_threshold(out_of_fold, y, lexicon), flag)

    return {
        "format": FORMAT,
        "language": LANGUAGE,
        "embedding": {
            "model": MODEL_NAME,
            "dimensions": DIMENSIONS,
            "wordllama": wordllama_version(),
        },
        "coefficients": coefficients.tolist(),
        "intercept": intercept,
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
        "training": {"seed": SEED, "folds": FOLDS, "C": C, "class_weight": "balanced"},
        "counts": _counts(examples),
        "cross_validation": _figures(examples, out_of_fold, lexicon, flag, check_in),
        "neighbours": [{"text": e.text, "category": e.category} for e in examples if e.risk],
    }


def _deduplicated(examples: list[Example]) -> list[Example]:
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
