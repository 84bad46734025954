"""The planted corpus (benchmarks/personal_details_corpus.py wrote it; benchmarks/
personal_details.py prints the figures in docs/benchmarks.md) meets the pattern mode's goals:
every e-mail, phone number and URL, at least 95% of addresses and dates fully covered, at most
2% of clean messages with any finding."""

import json
from collections import Counter
from pathlib import Path

from annotations.qa.personal_details.patterns import detect

CORPUS = Path(__file__).parent / "corpus" / "planted.jsonl"
GOALS = {"email": 1.0, "phone": 1.0, "url": 1.0, "address": 0.95, "date": 0.95}


def test_the_corpus_meets_the_goals():
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    planted, covered = Counter(), Counter()
    clean = [row for row in rows if not row["details"]]
    assert len(clean) >= 300 and len(rows) - len(clean) >= 300
    for row in rows:
        if not row["details"]:
            continue
        hit = {i for d in detect(row["text"]) for i in range(d.start, d.end)}
        for detail in row["details"]:
            start = row["text"].index(detail["text"])
            planted[detail["kind"]] += 1
            covered[detail["kind"]] += all(
                i in hit for i in range(start, start + len(detail["text"]))
            )
    for kind, goal in GOALS.items():
        assert covered[kind] / planted[kind] >= goal, kind
    false_positives = sum(bool(detect(row["text"])) for row in clean)
    assert false_positives / len(clean) <= 0.02
