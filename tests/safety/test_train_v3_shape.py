"""The shape of ``train_v3.jsonl``, the corpus written to cut the near-miss false alarms at the
check-in level (issue 45, after held-out v4): hard near-misses built from the words of risk
(ending a relationship, a last cigarette, a trip, a decision, someone else's pills or crisis,
the news, games, cooking burns, haircuts, dosage questions, leaving cards, giving things away
when moving), risk messages in every category phrased with the same words, plain messages, and
no message already in another corpus file."""

from __future__ import annotations

from collections import Counter

from annotations.text_checks.risk_corpus import CORPUS_DIR, training_files
from tests.safety.test_train_v2_shape import _records
from tests.safety.test_training_corpus_shape import CATEGORIES, RISK_MINIMUM, _key

CORPUS = CORPUS_DIR / "train_v3.jsonl"
MINIMUM = {"near_miss": 180, "plain": 30, "risk": 100}
PER_RISK_CATEGORY = 10


def test_every_line_is_a_record_with_a_valid_label_and_category():
    for number, record in enumerate(_records(CORPUS), start=1):
        assert set(record) == {"text", "label", "category"}, number
        assert record["text"] == record["text"].strip() and record["text"], number
        assert record["category"] in CATEGORIES[record["label"]], number


def test_enough_near_misses_plain_and_risk_messages_in_every_category():
    records = _records(CORPUS)
    everyday = Counter(r["category"] for r in records if r["label"] == "everyday")
    risk = Counter(r["category"] for r in records if r["label"] == "risk")
    assert everyday["near_miss"] >= MINIMUM["near_miss"]
    assert everyday["plain"] >= MINIMUM["plain"]
    assert sum(risk.values()) >= MINIMUM["risk"]
    assert set(risk) == set(RISK_MINIMUM)  # all nine categories
    assert min(risk.values()) >= PER_RISK_CATEGORY, risk


def test_no_message_twice_nor_in_another_corpus_file():
    keys = [_key(r["text"]) for r in _records(CORPUS)]
    assert len(keys) == len(set(keys))
    elsewhere = {
        _key(r["text"]) for path in training_files() if path != CORPUS for r in _records(path)
    }
    assert not set(keys) & elsewhere
