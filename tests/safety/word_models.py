"""The word model as scikit-learn fits it in training (``risk_training.py``'s settings), for the
tests that compare ``risk.WordModel``'s decision with scikit-learn's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from annotations.text_checks.risk_training import TEXT_C, TEXT_NGRAMS, TEXT_TOKEN_PATTERN


def fit_word_model(
    inputs: Sequence[str], labels: Sequence[Any], class_weight: str | None = None
) -> tuple[Any, Any]:
    """(the TF-IDF vectorizer, the logistic regression) fitted on these model inputs."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = TfidfVectorizer(
        ngram_range=TEXT_NGRAMS,
        sublinear_tf=True,
        token_pattern=TEXT_TOKEN_PATTERN,
        lowercase=False,
        dtype=np.float64,
    )
    model = LogisticRegression(C=TEXT_C, class_weight=class_weight, max_iter=5000)
    model.fit(vectorizer.fit_transform(inputs), list(labels))
    return vectorizer, model
