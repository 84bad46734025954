"""Which features a language's learned risk model reads, out of fold on its training corpus:
the English pipeline (MiniLM embedding by a support vector machine, plus the word model at
``TEXT_WEIGHT``) against cheap alternatives, chosen on the training corpus alone (never a
held-out file).

    OMP_NUM_THREADS=1 python benchmarks/risk_language_features.py --language es [--seeds 3]

Every variant is cross-validated on the trainer's group folds (``risk_training.groups``, over
the language's normalisation) for the trainer's seed and ``--seeds`` - 1 more; each model's
decision is divided by its out-of-fold spread, the weighted sum calibrated (Platt) and the
thresholds chosen as the trainer chooses them (``check_in``: 95% of every risk category, with
the language's lexicon; ``flag``: at most 10% of near-miss and 2% of other everyday messages).
The signals: the MiniLM SVM, the word model, a character n-gram model (``char_wb`` 2-5,
sublinear TF-IDF, logistic regression C = ``TEXT_C``) over the normalised text (accents and
umlauts folded) and over the text merely lower-cased (accents kept), and a logistic regression
over WordLlama's embedding. Per variant, the mean over seeds of: ROC AUC of the model alone; at
``check_in`` the share of everyday (near-miss, plain) messages flagged, lexicon or model, and
the recall; the recall at the lowest threshold flagging at most 2% and 5% of everyday messages
(lexicon or model; NaN where the lexicon alone flags more) and the model alone's at 2%; the
recall at ``flag``.
"""

from __future__ import annotations

import _setup
import numpy as np

from annotations.text_checks.lexicons import risk_phrases
from annotations.text_checks.risk_corpus import language_folder, read_examples, training_files
from annotations.text_checks.risk_embedding import load_embedder
from annotations.text_checks.risk_encoder import load_encoder
from annotations.text_checks.risk_training import (
    FOLDS,
    NEAR_MISS,
    SEED,
    TEXT_TOKEN_PATTERN,
    TEXT_WEIGHT,
    _precise_threshold,
    _recall_threshold,
    _weight,
    deduplicated,
    fit_tfidf,
    fold_decisions,
    groups,
    text_model_input,
)

# Each variant's weights on the decisions of: the MiniLM support vector machine, the word model,
# the character n-gram model (char_wb 2-5 over the normalised text), the same character model
# over the text lower-cased but not normalised (accents and umlauts kept), and a logistic
# regression over WordLlama's embedding (risk_embedding.py): each in units of its out-of-fold
# spread. Scaling every weight alike changes no figure (Platt and the thresholds are invariant):
# "minilm x0.25 + words + chars" is MiniLM + words x4 + chars x4.
VARIANTS: dict[str, tuple[float, float, float, float, float]] = {
    "minilm svm alone": (1.0, 0.0, 0.0, 0.0, 0.0),
    "words alone": (0.0, 1.0, 0.0, 0.0, 0.0),
    "chars alone": (0.0, 0.0, 1.0, 0.0, 0.0),
    "chars alone, accents kept": (0.0, 0.0, 0.0, 1.0, 0.0),
    "wordllama alone": (0.0, 0.0, 0.0, 0.0, 1.0),
    "words + chars": (0.0, 1.0, 1.0, 0.0, 0.0),
    "words x0.5 + chars": (0.0, 0.5, 1.0, 0.0, 0.0),
    f"minilm + words x{TEXT_WEIGHT} (English's)": (1.0, TEXT_WEIGHT, 0.0, 0.0, 0.0),
    "minilm + words x1.5 (shipped before)": (1.0, 1.5, 0.0, 0.0, 0.0),
    "minilm + chars x1.0": (1.0, 0.0, 1.0, 0.0, 0.0),
    "minilm + chars x2.0": (1.0, 0.0, 2.0, 0.0, 0.0),
    "minilm + words x0.7 + chars x0.7": (1.0, 0.7, 0.7, 0.0, 0.0),
    "minilm + words x1.0 + chars x1.0": (1.0, 1.0, 1.0, 0.0, 0.0),
    "minilm + words x1.0 + chars x2.0": (1.0, 1.0, 2.0, 0.0, 0.0),
    "minilm + words x1.5 + chars x1.5": (1.0, 1.5, 1.5, 0.0, 0.0),
    "minilm x0.5 + words + chars": (0.5, 1.0, 1.0, 0.0, 0.0),
    "minilm x0.5 + words + chars x2.0": (0.5, 1.0, 2.0, 0.0, 0.0),
    "minilm x0.25 + words + chars": (0.25, 1.0, 1.0, 0.0, 0.0),
    "minilm x0.25 + words + chars x2.0": (0.25, 1.0, 2.0, 0.0, 0.0),
    "wordllama + words + chars": (0.0, 1.0, 1.0, 0.0, 1.0),
    "minilm + wordllama + words + chars": (1.0, 1.0, 1.0, 0.0, 1.0),
}


def recall_at(scores: np.ndarray, y: np.ndarray, lexicon: np.ndarray, budget: float) -> float:
    """Recall (lexicon or model) at the lowest threshold flagging at most ``budget`` of all
    everyday messages (lexicon or model); NaN where the lexicon alone flags more (pass an
    all-False ``lexicon`` for the model alone)."""
    everyday = y == 0
    allowed = int(np.floor(budget * everyday.sum() + 1e-9)) - int((lexicon & everyday).sum())
    if allowed < 0:
        return float("nan")
    alarms = np.sort(scores[everyday & ~lexicon])[::-1]
    threshold = np.nextafter(alarms[allowed], 2.0) if allowed < alarms.size else 0.0
    return float(((scores >= threshold) | lexicon)[y == 1].mean())


def wordllama_decisions(
    V: np.ndarray, y: np.ndarray, fold_groups: np.ndarray, seed: int
) -> np.ndarray:
    """A logistic regression over WordLlama's (unit) embedding, out of fold."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedGroupKFold

    decision = np.zeros(len(y))
    folds = StratifiedGroupKFold(FOLDS, shuffle=True, random_state=seed)
    for train_rows, test_rows in folds.split(V, y, fold_groups):
        model = LogisticRegression(C=10.0, class_weight="balanced", max_iter=5000)
        model.fit(V[train_rows], y[train_rows])
        decision[test_rows] = model.decision_function(V[test_rows])
    return decision


def text_decisions(
    texts: list[str], y: np.ndarray, fold_groups: np.ndarray, seed: int, **vectorizer: object
) -> np.ndarray:
    """A TF-IDF logistic regression's decision of every message, out of fold."""
    from sklearn.model_selection import StratifiedGroupKFold

    decision = np.zeros(len(texts))
    folds = StratifiedGroupKFold(FOLDS, shuffle=True, random_state=seed)
    for train_rows, test_rows in folds.split(np.zeros(len(texts)), y, fold_groups):
        features, model = fit_tfidf(texts, y, train_rows, **vectorizer)
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
    raw = [" ".join(e.text.lower().split()) for e in examples]
    V = load_embedder().embed([e.text for e in examples])

    results: dict[str, list[tuple[float, ...]]] = {}
    for seed in range(SEED, SEED + options.seeds):
        svm = fold_decisions(X, y, fold_groups, seed)
        words = text_decisions(
            texts, y, fold_groups, seed, ngram_range=(1, 2), token_pattern=TEXT_TOKEN_PATTERN
        )
        chars = text_decisions(texts, y, fold_groups, seed, ngram_range=(2, 5), analyzer="char_wb")
        kept = text_decisions(raw, y, fold_groups, seed, ngram_range=(2, 5), analyzer="char_wb")
        llama = wordllama_decisions(V, y, fold_groups, seed)
        unit = np.stack([d * _weight(d) for d in (svm, words, chars, kept, llama)])
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
                    at_check_in[y == 0].mean(),
                    recall_at(scores, y, lexicon, 0.02),
                    recall_at(scores, y, lexicon, 0.05),
                    recall_at(scores, y, np.zeros_like(lexicon), 0.02),
                )
            )
    print(
        f"\nmean over {options.seeds} fold seeds, lexicon or model: AUC (model alone) | at "
        "check_in (95% of every category): everyday flagged (near-miss, plain), recall | "
        "recall with 2% and 5% of everyday messages flagged (NaN: the lexicon alone flags more), "
        "the model alone at 2% | at flag: recall"
    )
    for name, rows in results.items():
        auc, near, other, recall_check, recall_flag, everyday, at2, at5, alone2 = np.mean(
            rows, axis=0
        )
        spread = np.std([r[5] for r in rows])
        print(
            f"  {name:38} AUC {auc:.3f} | everyday {everyday:6.1%} (sd {spread:4.1%}; "
            f"near-miss {near:6.1%}, plain {other:6.1%}), recall {recall_check:6.1%} | "
            f"at 2% {at2:6.1%}, at 5% {at5:6.1%}, model alone at 2% {alone2:6.1%} | flag "
            f"recall {recall_flag:6.1%}"
        )


if __name__ == "__main__":
    main()
