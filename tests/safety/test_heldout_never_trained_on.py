"""A held-out file is never a training input: ``heldout_*.jsonl`` beside the training files is
left out by name (its contents are never read here), and the shipped artefact names no such file."""

from __future__ import annotations

import json

from annotations.text_checks.risk import PACKAGED_ARTEFACT as ARTEFACT
from annotations.text_checks.risk_corpus import CORPUS_DIR, training_files


def test_a_heldout_file_beside_the_training_files_is_left_out(tmp_path):
    for name in ("train_a.jsonl", "train_b.jsonl", "heldout_v1.jsonl", "heldout_v2.jsonl"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert [f.name for f in training_files(tmp_path)] == ["train_a.jsonl", "train_b.jsonl"]


def test_the_corpus_folder_trains_on_no_heldout_file():
    names = [f.name for f in training_files(CORPUS_DIR)]
    assert names and not [n for n in names if n.startswith("heldout_")]


def test_the_shipped_artefact_was_trained_on_no_heldout_file():
    trained_on = json.loads(ARTEFACT.read_text(encoding="utf-8"))["corpus"]["files"]
    assert trained_on and not [n for n in trained_on if n.startswith("heldout_")]
