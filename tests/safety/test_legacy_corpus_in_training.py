"""The lexicon's labelled corpus (``tests/safety/corpus.py``) is part of the model's training
corpus, as ``risk_corpus/train_legacy.jsonl``: the two hold the same messages with the same
labels, so neither drifts from the other."""

from __future__ import annotations

from annotations.text_checks.risk_corpus import CORPUS_DIR, read_examples
from tests.safety.corpus import EVERYDAY, RISK


def test_train_legacy_holds_the_lexicon_corpus():
    examples = read_examples([CORPUS_DIR / "train_legacy.jsonl"])
    assert [e.text for e in examples if e.risk] == list(RISK)
    assert [e.text for e in examples if not e.risk] == list(EVERYDAY)
