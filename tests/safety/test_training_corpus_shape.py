"""The shape of the hand-written training corpus of the risk model (issue 45, item 2):
every line a valid record, enough messages in every category, no message twice, none in both
labels, none copied from the lexicon's own corpus (tests/safety/corpus.py)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.safety.corpus import EVERYDAY, RISK

CORPUS = (
    Path(__file__).resolve().parents[2]
    / "annotations"
    / "text_checks"
    / "risk_corpus"
    / "train_v1.jsonl"
)

# The Columbia Suicide Severity Rating Scale's ideation and behaviour categories, plus
# self-harm, hopelessness and burden; each needs enough examples for the model to learn it.
RISK_MINIMUM = {
    "wish_to_be_dead": 65,
    "nonspecific_thoughts": 65,
    "method": 65,
    "intent": 65,
    "plan": 65,
    "preparatory": 65,
    "self_harm": 65,
    "hopelessness": 65,
    "burden": 65,
}
EVERYDAY_MINIMUM = {"near_miss": 250, "plain": 350}
CATEGORIES = {"risk": set(RISK_MINIMUM), "everyday": set(EVERYDAY_MINIMUM)}


def _key(text: str) -> str:
    """Case, spacing and punctuation do not make two messages different."""
    return re.sub(r"[\W_]+", "", text.casefold())


def _records() -> list[dict[str, str]]:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_every_line_is_a_record_with_a_valid_label_and_category():
    for number, line in enumerate(CORPUS.read_text(encoding="utf-8").splitlines(), start=1):
        record = json.loads(line)
        assert set(record) == {"text", "label", "category"}, number
        assert isinstance(record["text"], str) and record["text"].strip(), number
        assert record["text"] == record["text"].strip(), number
        assert record["label"] in CATEGORIES, number
        assert record["category"] in CATEGORIES[record["label"]], number


@pytest.mark.parametrize(
    ("label", "minimum"), [("risk", RISK_MINIMUM), ("everyday", EVERYDAY_MINIMUM)]
)
def test_every_category_has_enough_messages(label, minimum):
    counts = Counter(r["category"] for r in _records() if r["label"] == label)
    short = {c: counts[c] for c, needed in minimum.items() if counts[c] < needed}
    assert not short, f"categories below their minimum: {short}"
    assert sum(counts.values()) >= 650


def test_no_message_appears_twice():
    counts = Counter(_key(r["text"]) for r in _records())
    assert not [key for key, n in counts.items() if n > 1]


def test_no_message_is_in_both_labels():
    by_label: dict[str, set[str]] = {"risk": set(), "everyday": set()}
    for record in _records():
        by_label[record["label"]].add(_key(record["text"]))
    assert not by_label["risk"] & by_label["everyday"]


def test_no_message_is_copied_from_the_lexicon_corpus():
    lexicon_corpus = {_key(text) for text in RISK + EVERYDAY}
    assert not [r["text"] for r in _records() if _key(r["text"]) in lexicon_corpus]
