"""The risk check's word model (``risk.WordModel``) computes, with the artefact's terms alone,
the decision scikit-learn's TF-IDF and logistic regression give at training: the live check
scores a message as the out-of-fold figures and the thresholds assumed."""

from __future__ import annotations

import numpy as np
import pytest

from annotations.text_checks.risk import WordModel
from annotations.text_checks.risk_corpus import read_examples
from annotations.text_checks.risk_training import (
    _text_spec,
    text_model_input,
)
from tests.safety.conftest import write_corpus
from tests.safety.word_models import fit_word_model

UNSEEN = (
    "I WROTE letters, letters and more letters to my family!!",  # case, repeats, punctuation
    "i’m so tired after this week, tired tired tired",  # a curly apostrophe, repeated terms
    "completely unrelated zebra vocabulary",  # no term the corpus had: the intercept alone
    "a",  # no token at all (single letters are not terms)
)


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    examples = read_examples([write_corpus(tmp_path_factory.mktemp("words"))])
    texts = [text_model_input(e.text) for e in examples]
    vectorizer, model = fit_word_model(texts, [e.risk for e in examples], class_weight="balanced")
    return vectorizer, model, [e.text for e in examples]


def test_the_word_model_gives_scikit_learns_decision(fitted):
    vectorizer, model, corpus = fitted
    words = WordModel(_text_spec(vectorizer, model, weight=1.0))
    texts = [*corpus, *UNSEEN]
    expected = model.decision_function(vectorizer.transform([text_model_input(t) for t in texts]))
    got = np.array([words.decision(t) for t in texts])
    assert np.abs(got - expected).max() < 1e-5
    # The corpus's risk and everyday messages are told apart: the decisions are not constant.
    assert got[: len(corpus)].std() > 0.1


def test_a_message_without_known_terms_scores_the_intercept(fitted):
    vectorizer, model, _ = fitted
    words = WordModel(_text_spec(vectorizer, model, weight=1.0))
    assert words.decision("zebra quokka") == pytest.approx(float(model.intercept_[0]), abs=1e-6)
