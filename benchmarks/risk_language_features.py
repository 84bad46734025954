"""Which features a language's learned risk model reads, out of fold on its training corpus:
the English pipeline (MiniLM embedding by a support vector machine, plus the word model at
``TEXT_WEIGHT``) against cheap alternatives, chosen on the training corpus alone (never a
held-out file).

    OMP_NUM_THREADS=1 python benchmarks/risk_language_features.py --language es [--seeds 3]

Every variant is cross-validated on the trainer's group folds (``risk_training.groups``, over
the language's normalisation) for the trainer's seed and ``--seeds`` - 1 more; each model's
decision is divided by its out-of-fold spread, the sum calibrated (Platt) and the thresholds
chosen as the trainer chooses them (``check_in``: 95% of every risk category, with the
language's lexicon; ``flag``: at most 10% of near-miss and 2% of other everyday messages). Per
variant, the mean over seeds of: ROC AUC of the model alone; at ``check_in`` the share of
near-miss and plain everyday messages flagged (lexicon or model); at ``flag`` the recall.
"""

from __future__ import annotations

import _setup
import numpy as np

from annotations.text_checks.lexicons import risk_phrases
from annotations.text_checks.risk_corpus import language_folder, read_examples, training_files
from annotations.text_checks.risk_encoder import load_encoder
from annotations.text_checks.risk_training import (
    FOLDS,
    NEAR_MISS,
    SEED,
    TEXT_C,
    TEXT_TOKEN_PATTERN,
    TEXT_WEIGHT,
    _precise_threshold,
    _recall_threshold,
    _weight,
    deduplicated,
    fold_decisions,
    groups,
    text_model_input,
)

# Each variant's weights on the MiniLM support vector machine's, the word model's and the
# character n-gram model's decisions (each in units of its out-of-fold spread).
VARIANTS: dict[str, tuple[float, float, float]] = {
    "minilm svm alone": (1.0, 0.0, 0.0),
    "words alone": (0.0, 1.0, 0.0),
    "char 2-5 alone": (0.0, 0.0, 1.0),
    f"minilm + words x{TEXT_WEIGHT} (English's)": (1.0, TEXT_WEIGHT, 0.0),
    "minilm + words x1.0": (1.0, 1.0, 0.0),
    "minilm + words x1.5": (1.0, 1.5, 0.0),
    "minilm + words x2.0": (1.0, 2.0, 0.0),
    "minilm + chars x1.0": (1.0, 0.0, 1.0),
    "minilm + words x0.7 + chars x0.7": (1.0, 0.7, 0.7),
}


def text_decisions(
    texts: list[str], y: np.ndarray, fold_groups: np.ndarray, seed: int, **vectorizer: object
) -> np.ndarray:
    """A TF-IDF logistic regression's decision of every message, out of fold."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedGroupKFold

    decision = np.zeros(len(texts))
    folds = StratifiedGroupKFold(FOLDS, shuffle=True, random_state=seed)
    for train_rows, test_rows in folds.split(np.zeros(len(texts)), y, fold_groups):
        features = TfidfVectorizer(sublinear_tf=True, lowercase=False, **vectorizer)
        fitted = features.fit_transform([texts[i] for i in train_rows])
        model = LogisticRegression(C=TEXT_C, class_weight="balanced", max_iter=5000)
        model.fit(fitted, y[train_rows])
        decision[test_rows] = model.decision_function(
            features.transform([texts[i] for i in test_rows])
        )
    return decision


def calibrated(decision: np.ndarray, y: np.ndarray) -> np.ndarray:
    from sklearn.linear_model import LogisticRegression

    platt = LogisticRegression(C=1e6, max_iter=5000).fit(decision.reshape(-1, 1), y)
    return platt.predict_proba(decision.reshape(-1, 1))[:, 1]


def main() -> None:
    from sklearn.metrics import roc_auc_score

    parser = _setup.argument_parser(__doc__)
    parser.add_argument("--language", default="es")
    parser.add_argument("--seeds", type=int, default=3)
    options = parser.parse_args()
    language = options.language
    files = training_files(language_folder(language))
    examples = deduplicated(read_examples(files))
    y = np.array([e.risk for e in examples], dtype=int)
    lexicon = np.array([bool(risk_phrases(e.text, language)) for e in examples])
    near_miss = np.array([e.category == NEAR_MISS for e in examples])
    plain = (y == 0) & ~near_miss
    categories = np.array([e.category for e in examples])
    print(
        f"{language}: {', '.join(f.name for f in files)}: {y.sum()} risk, {(y == 0).sum()} "
        f"everyday ({near_miss.sum()} near-miss); lexicon alone: recall "
        f"{lexicon[y == 1].mean():.1%}, near-miss {lexicon[near_miss].mean():.1%}, plain "
        f"{lexicon[plain].mean():.1%}"
    )
    X = load_encoder().embed([e.text for e in examples])
    fold_groups = groups(examples, X, language)
    texts = [text_model_input(e.text, language) for e in examples]

    results: dict[str, list[tuple[float, float, float, float, float]]] = {}
    for seed in range(SEED, SEED + options.seeds):
        svm = fold_decisions(X, y, fold_groups, seed)
        words = text_decisions(
            texts, y, fold_groups, seed, ngram_range=(1, 2), token_pattern=TEXT_TOKEN_PATTERN
        )
        chars = text_decisions(texts, y, fold_groups, seed, ngram_range=(2, 5), analyzer="char_wb")
        unit = np.stack([d * _weight(d) for d in (svm, words, chars)])
        for name, weights in VARIANTS.items():
            decision = np.asarray(weights) @ unit
            scores = calibrated(decision, y)
            flag = _precise_threshold(scores, y, lexicon, near_miss)
            check_in = min(_recall_threshold(scores, y, lexicon, categories), flag)
            at_check_in = (scores >= check_in) | lexicon
            at_flag = (scores >= flag) | lexicon
            results.setdefault(name, []).append(
                (
                    roc_auc_score(y, decision),
                    at_check_in[near_miss].mean(),
                    at_check_in[plain].mean(),
                    at_check_in[y == 1].mean(),
                    at_flag[y == 1].mean(),
                )
            )
    print(
        f"\nmean over {options.seeds} fold seeds: AUC (model alone) | at check_in (95% of every "
        "category): near-miss flagged, plain flagged, recall | at flag: recall"
    )
    for name, rows in results.items():
        auc, near, other, recall_check, recall_flag = np.mean(rows, axis=0)
        spread = np.std([r[1] for r in rows])
        print(
            f"  {name:36} AUC {auc:.3f} | near-miss {near:6.1%} (sd {spread:.1%}), plain "
            f"{other:5.1%}, recall {recall_check:6.1%} | flag recall {recall_flag:6.1%}"
        )


if __name__ == "__main__":
    main()
