"""Training is reproducible and checked: the same corpus gives the same artefact byte for byte
(fixed seed), the thresholds keep every training risk message caught, and the command writes
the artefact or refuses bad input with a clear error, writing nothing."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from annotations.text_checks import risk
from annotations.text_checks.risk_corpus import corpus_hash
from annotations.text_checks.risk_training import train
from tests.safety.conftest import TINY_RISK, write_corpus


def test_the_same_corpus_trains_the_same_artefact(tmp_path, tiny_artefact):
    files = [write_corpus(tmp_path)]
    assert train(files) == tiny_artefact
    assert tiny_artefact["corpus"]["sha256"] == corpus_hash(files)
    assert tiny_artefact["counts"]["risk"] == len(TINY_RISK)


def test_the_trained_model_catches_every_training_risk_message(tiny_model):
    assert tiny_model["thresholds"]["check_in"] <= tiny_model["thresholds"]["flag"]
    assert [text for text, _ in TINY_RISK if not risk.is_risk(text)] == []


def test_the_command_writes_the_artefact(tmp_path, tiny_artefact):
    corpus = tmp_path / "corpus"
    write_corpus(corpus)
    (corpus / "heldout_v1.jsonl").write_text("not json: never read\n", encoding="utf-8")
    out = tmp_path / "model.json"
    log = io.StringIO()
    call_command("train_risk_model", corpus=corpus, out=out, stdout=log)
    assert json.loads(out.read_text(encoding="utf-8")) == tiny_artefact
    assert "trained on train_tiny.jsonl: 12 risk, 12 everyday messages" in log.getvalue()


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("{not json", "train_bad.jsonl:1: not a JSON object"),
        ('{"text": "hi", "label": "maybe"}', "train_bad.jsonl:1: 'label' must be one of"),
        ('{"text": " ", "label": "risk"}', "train_bad.jsonl:1: 'text' must be a non-empty"),
    ],
)
def test_a_bad_corpus_line_is_refused_naming_it(tmp_path, line, error):
    (tmp_path / "train_bad.jsonl").write_text(line + "\n", encoding="utf-8")
    out = tmp_path / "model.json"
    with pytest.raises(CommandError, match=error):
        call_command("train_risk_model", corpus=tmp_path, out=out)
    assert not out.exists()


def test_a_folder_without_training_files_is_refused(tmp_path):
    with pytest.raises(CommandError, match="no train_"):
        call_command("train_risk_model", corpus=tmp_path, out=tmp_path / "model.json")
