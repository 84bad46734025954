"""Training the risk model (``risk.py``) from the corpus: reproducible, pure (no Django).

``train(files)`` reads the ``train_*.jsonl`` files, embeds every message, fits a logistic
regression (fixed seed, classes weighted to balance) and returns the artefact ``risk.py`` reads:
coefficients and intercept (the standardisation folded in, so inference is one dot product),
two thresholds, the corpus's hash, and the cross-validated figures they were chosen from.

The thresholds are chosen for recall, on out-of-fold scores (five folds: every message scored by
a model that never saw it), for the combined check (lexicon or model), within a budget of false
alarms:
* ``flag``: the highest threshold at which lexicon or model catch ``FLAG.recall`` of the risk
  messages out of fold, raised if needed until at most ``FLAG.everyday`` of the everyday ones
  are flagged (a flag on every other message would teach reviewers to ignore it);
* ``check_in``: the same for ``CHECK_IN``, at most ``flag``; then lowered, if needed, until the
  final model with the lexicon catches every training risk message (the corpus stays at 100%).
A false alarm costs a reviewer a glance, a miss leaves a person in crisis without one: hence
the budgets (about the issue's bars: 10% of near-miss and 2% of plain everyday messages, a third
and two thirds of the everyday corpus). Where the lexicon alone reaches the recall, the model
is not needed for it and the threshold is 1.0 (the model then never fires alone). The artefact
records what each threshold caught and cost, out of fold, per category.
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
class Target:
    recall: float  # of the risk messages, lexicon or model, out of fold
    everyday: float  # at most this share of everyday messages flagged, out of fold


FLAG = Target(recall=0.98, everyday=0.03)
CHECK_IN = Target(recall=1.0, everyday=0.05)
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
    in_sample = _probability(X.astype(np.float32) @ coefficients.astype(np.float32) + intercept)

    flag = _threshold(out_of_fold, y, lexicon, FLAG)
    check_in = min(_threshold(out_of_fold, y, lexicon, CHECK_IN), flag)
    missed_in_sample = in_sample[(y == 1) & ~lexicon]
    if missed_in_sample.size:
        check_in = min(check_in, _floor(float(missed_in_sample.min())))

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
        "thresholds": {"flag": flag, "check_in": check_in},
        "threshold_rule": (
            f"out of fold, lexicon or model: flag catches >= {FLAG.recall} of risk messages "
            f"flagging <= {FLAG.everyday} of everyday ones; check_in >= {CHECK_IN.recall} within "
            f"{CHECK_IN.everyday}, at most flag, lowered until every training risk message is caught"
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


def _threshold(scores: np.ndarray, y: np.ndarray, lexicon: np.ndarray, target: Target) -> float:
    """The highest threshold at which lexicon or model reach ``target.recall`` of the risk
    messages, raised until at most ``target.everyday`` of the everyday ones are flagged."""
    risk, everyday = y == 1, y == 0
    allowed_misses = math.floor((1 - target.recall) * risk.sum() + 1e-9)
    needed = np.sort(scores[risk & ~lexicon])  # the risk messages only the model can catch
    for_recall = _floor(float(needed[allowed_misses])) if allowed_misses < needed.size else 1.0
    allowed_alarms = math.floor(target.everyday * everyday.sum() + 1e-9) - int(
        (lexicon & everyday).sum()
    )
    alarms = np.sort(scores[everyday & ~lexicon])[::-1]  # the model's, highest first
    if allowed_alarms < 0:
        within_budget = 1.0
    elif allowed_alarms >= alarms.size:
        within_budget = 0.0
    else:
        within_budget = min(_ceil_above(float(alarms[allowed_alarms])), 1.0)
    return max(for_recall, within_budget)


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
