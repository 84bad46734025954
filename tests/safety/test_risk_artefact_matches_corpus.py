"""The shipped risk model was trained on the corpus as it is: the artefact's corpus hash is the
hash of today's ``train_*.jsonl`` files, and its encoder and embedding are the installed ones. After changing
the corpus, run ``manage.py train_risk_model``."""

from __future__ import annotations

import json

from annotations.text_checks.risk import PACKAGED_ARTEFACT as ARTEFACT
from annotations.text_checks.risk_corpus import corpus_hash, file_hashes, training_files
from annotations.text_checks.risk_embedding import DIMENSIONS, MODEL_NAME, wordllama_version
from annotations.text_checks.risk_encoder import DIMENSIONS as ENCODER_DIMENSIONS
from annotations.text_checks.risk_encoder import MAX_TOKENS, PACKAGE, encoder_version


def test_the_artefact_was_trained_on_the_corpus_as_it_is():
    artefact = json.loads(ARTEFACT.read_text(encoding="utf-8"))
    files = training_files()
    assert artefact["corpus"]["files"] == file_hashes(files), (
        "the corpus changed since the risk model was trained: run manage.py train_risk_model"
    )
    assert artefact["corpus"]["sha256"] == corpus_hash(files)


def test_the_artefact_names_the_installed_encoder_and_embedding():
    artefact = json.loads(ARTEFACT.read_text(encoding="utf-8"))
    assert artefact["encoder"] == {
        "package": PACKAGE,
        "version": encoder_version(),
        "dimensions": ENCODER_DIMENSIONS,
        "max_tokens": MAX_TOKENS,
    }
    assert artefact["embedding"] == {
        "model": MODEL_NAME,
        "dimensions": DIMENSIONS,
        "wordllama": wordllama_version(),
    }
    classifier = artefact["classifier"]
    assert classifier["support_shape"][1] == ENCODER_DIMENSIONS
    assert len(classifier["dual_coef"]) == classifier["support_shape"][0]
    assert 0 <= artefact["thresholds"]["check_in"] <= artefact["thresholds"]["flag"] <= 1
