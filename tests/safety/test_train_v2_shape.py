"""The shape of ``train_v2.jsonl``, the corpus written to retune the risk model for specificity
(issue 45): valid records in the categories of ``train_v1.jsonl``, enough hard near-misses,
plain messages and risk messages in every category, and no message already in another corpus
file (a copy would sit in two folds' training and tell nothing new)."""

from __future__ import annotations

import json
from collections import Counter

from annotations.text_checks.risk_corpus import CORPUS_DIR, training_files
from tests.safety.test_training_corpus_shape import CATEGORIES, RISK_MINIMUM, _key

CORPUS = CORPUS_DIR / "train_v2.jsonl"
MINIMUM = {"near_miss": 150, "plain": 60, "risk": 100}
# Held-out sets retired into the corpus after this file was written: written blind, they may
# hold one of its everyday lines by chance (v4: "this heat is killing me, no aircon in the
# flat"); training keeps one copy of a repeated text.
WRITTEN_LATER_BLIND = {"train_heldout_v4.jsonl"}


def _records(path=CORPUS) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_every_line_is_a_record_with_a_valid_label_and_category():
    for number, record in enumerate(_records(), start=1):
        assert set(record) == {"text", "label", "category"}, number
        assert record["text"] == record["text"].strip() and record["text"], number
        assert record["category"] in CATEGORIES[record["label"]], number


def test_enough_near_misses_plain_and_risk_messages_in_every_category():
    records = _records()
    everyday = Counter(r["category"] for r in records if r["label"] == "everyday")
    risk = Counter(r["category"] for r in records if r["label"] == "risk")
    assert everyday["near_miss"] >= MINIMUM["near_miss"]
    assert everyday["plain"] >= MINIMUM["plain"]
    assert sum(risk.values()) >= MINIMUM["risk"]
    assert set(risk) == set(RISK_MINIMUM)  # all nine categories


def test_no_message_twice_nor_in_another_corpus_file():
    keys = [_key(r["text"]) for r in _records()]
    assert len(keys) == len(set(keys))
    elsewhere = {
        _key(r["text"])
        for path in training_files()
        if path != CORPUS and path.name not in WRITTEN_LATER_BLIND
        for r in _records(path)
    }
    assert not set(keys) & elsewhere
