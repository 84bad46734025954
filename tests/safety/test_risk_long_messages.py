"""A long Spanish or German message is read whole and sentence by sentence (issue 44, round 9):
risk told in passing inside a long ordinary request ("resumen de la fotosíntesis ... ayer me
hice varios cortes ... gracias") is one sentence among many, diluted in the whole message's
score. The artefact says how it reads (``classifier["parts"]``, ``risk.Parts``); the score is
the highest of the whole's and each part's, the same in training (the out-of-fold scores the
thresholds are chosen on) as in the live check. English reads the whole message alone."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from annotations.text_checks import risk
from annotations.text_checks.risk import Parts, RiskModel, parts_of
from annotations.text_checks.risk_training import PARTS

READS = Parts(words=25)
LONG = (
    "hola, necesito un resumen de la fotosintesis para mañana, fase luminosa y fase oscura. "
    "ah y de paso, me hice cortes nuevos en el brazo anoche! gracias por todo"
)


def test_a_short_message_is_read_whole_alone():
    assert READS.of("me siento muy cansada hoy. no se que hacer.") == []
    assert READS.of(" ".join(["palabra"] * 25)) == []  # 25 words: not more than 25


def test_a_long_message_is_read_sentence_by_sentence():
    assert len(LONG.split()) > 25
    assert READS.of(LONG) == [
        "hola, necesito un resumen de la fotosintesis para mañana, fase luminosa y fase oscura.",
        "ah y de paso, me hice cortes nuevos en el brazo anoche!",
        "gracias por todo",
    ]
    # a line break ends a sentence too, and the parts are each read once
    assert READS.of("uno dos tres\n" * 10) == ["uno dos tres"]


def test_a_long_sentence_is_read_in_overlapping_windows():
    words = [f"w{i}" for i in range(70)]
    parts = READS.of(" ".join(words))
    assert parts == [
        " ".join(words[0:30]),
        " ".join(words[15:45]),
        " ".join(words[30:60]),
        " ".join(words[45:70]),
    ]


def test_a_rule_of_sentences_reads_a_short_message_of_many_sentences():
    by_sentences = Parts(words=25, sentences=3)
    assert by_sentences.of("hola. que tal. todo bien?") == ["hola.", "que tal.", "todo bien?"]
    assert by_sentences.of("hola. que tal.") == []


class _Classifier:
    """Decides 0.9 for a text that says 'cortes' in few words, else 0.1 (its probability is its
    decision)."""

    parts: Parts | None = READS

    def decision(self, vector: np.ndarray, text: str) -> float:
        return 0.9 if "cortes" in text and len(text.split()) <= 15 else 0.1

    def probability(self, combined: float) -> float:
        return combined


class _Encoder:
    def embed_one(self, text: str) -> np.ndarray:
        return np.zeros(3, dtype=np.float32)


def _model(parts: Parts | None) -> RiskModel:
    """A model whose classifier and encoder are the fakes above (no artefact read)."""
    model = object.__new__(RiskModel)
    classifier = _Classifier()
    classifier.parts = parts
    model._classifier = classifier  # type: ignore[assignment]
    model._encoder = _Encoder()  # type: ignore[assignment]
    return model


def test_the_score_of_a_long_message_is_the_highest_of_the_whole_and_its_parts():
    assert _model(READS).score(LONG) == pytest.approx(0.9)  # the sentence with the cuts
    assert _model(None).score(LONG) == pytest.approx(0.1)  # the whole alone: diluted
    assert _model(READS).score("cortes " + "y " * 30) == pytest.approx(0.1)  # no part says it


def test_a_part_counts_less_its_margin():
    assert _model(Parts(words=25, margin=0.3)).score(LONG) == pytest.approx(0.6)
    assert _model(Parts(words=25, margin=0.9)).score(LONG) == pytest.approx(0.1)  # the whole's


@pytest.mark.parametrize("language", ["es", "de"])
def test_the_languages_artefact_says_it_reads_long_messages_in_parts(language):
    artefact = json.loads(risk.packaged_artefact(language).read_text(encoding="utf-8"))
    reads = parts_of(artefact["classifier"].get("parts"))
    assert reads is not None and reads.margin > 0
    assert replace(reads, margin=0.0) == PARTS[language]
    whole = artefact["cross_validation"]["whole_message_check_in"]
    assert set(whole) == {"threshold", "model_recall", "combined_recall", "everyday_flagged"}


def test_english_reads_the_whole_message_alone():
    artefact = json.loads(risk.PACKAGED_ARTEFACT.read_text(encoding="utf-8"))
    assert "parts" not in artefact["classifier"] and "en" not in PARTS
    assert parts_of(None) is None and parts_of({}) is None
