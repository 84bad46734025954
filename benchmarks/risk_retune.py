"""The English risk model's retune, out of fold on its training corpus alone (never a held-out
file): the trainer's pipeline under other settings, on other fold seeds, on the messages an
older corpus shares, and with an older lexicon; and an older lexicon against today's on every
corpus file. What docs/benchmarks.md's "retune after held-out v5" table was measured with.

    OMP_NUM_THREADS=1 python benchmarks/risk_retune.py [--seed N] [--text-weight W] [--c C]
        [--text-c C] [--near-miss-weight W] [--without train_v4.jsonl | --shared-without train_v4.jsonl]
        [--lexicon-from COMMIT]
    OMP_NUM_THREADS=1 python benchmarks/risk_retune.py --compare-lexicon COMMIT

The first form fits the two models on the trainer's group folds (``risk_training.groups``),
sums their decisions as the trainer does, calibrates, chooses ``check_in`` and ``flag`` by the
trainer's rules and prints, at each, the messages flagged (lexicon or model) per category; with
``--without`` a file is left out of the corpus (the corpus before it was written); with
``--shared-without`` it stays in, and the figures are also given on the other files' messages
("shared"). ``--lexicon-from`` counts the lexicon of a git commit instead of
today's. The second form reads ``lexicons.py`` of the commit and lists, on every corpus file
(training, Spanish, German, ``tests/safety/corpus.py``), the risk messages that lose every
phrase and the everyday ones that stop or start raising one.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import _setup
import numpy as np

from annotations.text_checks import lexicons
from annotations.text_checks import risk_training as rt
from annotations.text_checks.risk_corpus import CORPUS_DIR, read_examples, training_files
from annotations.text_checks.risk_encoder import load_encoder

_ = _setup
ROOT = Path(__file__).resolve().parents[1]


def lexicon_of(commit: str) -> ModuleType:
    """``lexicons.py`` as it was at ``commit`` (it imports today's Spanish and German lists)."""
    source = subprocess.run(
        ["git", "show", f"{commit}:annotations/text_checks/lexicons.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "lexicons_then.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("lexicons_then", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def out_of_fold(options: argparse.Namespace, phrases: Callable[[str], list[str]]) -> None:
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedGroupKFold
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    files = [f for f in training_files() if f.name not in options.without]
    examples = rt.deduplicated(read_examples(files))
    y = np.array([e.risk for e in examples], dtype=int)
    X = load_encoder().embed([e.text for e in examples])
    lexicon = np.array([bool(phrases(e.text)) for e in examples])
    texts = [rt.text_model_input(e.text) for e in examples]
    near = np.array([e.category == rt.NEAR_MISS for e in examples])
    weights = np.where(near, options.near_miss_weight, 1.0)
    svm_d, text_d = np.zeros(len(y)), np.zeros(len(y))
    folds = StratifiedGroupKFold(rt.FOLDS, shuffle=True, random_state=options.seed)
    for train, test in folds.split(X, y, rt.groups(examples, X)):
        scaler = StandardScaler().fit(X[train])
        svm = SVC(C=options.c, kernel="rbf", gamma="scale", class_weight="balanced")
        svm.fit(scaler.transform(X[train]), y[train], sample_weight=weights[train])
        svm_d[test] = svm.decision_function(scaler.transform(X[test]))
        vectorizer, words = rt.fit_tfidf(
            texts,
            y,
            train,
            c=options.text_c,
            sample_weight=weights,
            ngram_range=rt.TEXT_NGRAMS,
            token_pattern=rt.TEXT_TOKEN_PATTERN,
        )
        text_d[test] = words.decision_function(vectorizer.transform([texts[i] for i in test]))
    decision = rt._weight(svm_d) * svm_d + options.text_weight * rt._weight(text_d) * text_d
    platt = LogisticRegression(C=1e6, max_iter=5000).fit(decision.reshape(-1, 1), y)
    scores = rt._probability(platt.coef_[0][0] * decision + platt.intercept_[0])
    categories = np.array([e.category for e in examples])
    flag = rt._precise_threshold(scores, y, lexicon, near)
    check_in = min(rt._recall_threshold(scores, y, lexicon, categories), flag)
    print(f"{len(examples)} messages; check_in {check_in}, flag {flag}")
    for name, threshold in (("check_in", check_in), ("flag", flag)):
        hit = (scores >= threshold) | lexicon
        shared = np.array([e.source.split(":")[0] not in options.shared_without for e in examples])
        for label, rows in (("all", np.ones(len(y), bool)), ("shared", shared)):
            if label == "shared" and not options.shared_without:
                continue
            counts = {
                c: f"{int(hit[rows & (categories == c)].sum())}/"
                f"{int((rows & (categories == c)).sum())}"
                for c in sorted(set(categories))
            }
            print(f"  at {name} ({label}): {json.dumps(counts)}")


def compare_lexicon(commit: str) -> None:
    from tests.safety.corpus import EVERYDAY, RISK

    then = lexicon_of(commit)
    corpora: dict[str, tuple[str, list[tuple[str, bool]]]] = {}
    for path in sorted(CORPUS_DIR.glob("*.jsonl")) + sorted(CORPUS_DIR.glob("*/*.jsonl")):
        language = path.parent.name if path.parent != CORPUS_DIR else "en"
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        corpora[str(path.relative_to(CORPUS_DIR))] = (
            language,
            [(r["text"], r["label"] == "risk") for r in rows],
        )
    corpora["tests/safety/corpus.py"] = (
        "en",
        [(t, True) for t in RISK] + [(t, False) for t in EVERYDAY],
    )
    totals = dict.fromkeys(("risk then", "risk now", "lost", "everyday then", "everyday now"), 0)
    for name, (language, rows) in corpora.items():
        for text, risk in rows:
            before = bool(then.risk_phrases(text, language))
            after = bool(lexicons.risk_phrases(text, language))
            kind = "risk" if risk else "everyday"
            totals[f"{kind} then"] += before
            totals[f"{kind} now"] += after
            if risk and before and not after:
                totals["lost"] += 1
                print(f"LOST {name}: {text}")
            elif not risk and before != after:
                print(f"{'dropped' if before else 'ADDED'} {name}: {text}")
    print(totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=rt.SEED)
    parser.add_argument("--text-weight", type=float, default=rt.TEXT_WEIGHT)
    parser.add_argument("--c", type=float, default=rt.C)
    parser.add_argument("--text-c", type=float, default=rt.TEXT_C)
    parser.add_argument("--near-miss-weight", type=float, default=1.0)
    parser.add_argument("--without", action="append", default=[], help="a file left out")
    parser.add_argument(
        "--shared-without", action="append", default=[], help="also report without this file"
    )
    parser.add_argument("--lexicon-from", help="a git commit whose lexicons.py is counted")
    parser.add_argument("--compare-lexicon", help="a git commit whose lexicon is compared")
    options = parser.parse_args()
    if options.compare_lexicon:
        compare_lexicon(options.compare_lexicon)
        return
    phrases = (
        lexicon_of(options.lexicon_from).risk_phrases
        if options.lexicon_from
        else (lexicons.risk_phrases)
    )
    out_of_fold(options, phrases)


if __name__ == "__main__":
    main()
