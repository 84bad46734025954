"""Score the pattern detector on the planted corpus: recall per kind, false positives on clean.

    .venv/bin/python benchmarks/personal_details.py

A planted detail is found when the detector's spans cover every character of it (what a
release needs: a half-redacted phone number still leaks); "kind right" also asks that a
covering span has the planted kind. A clean message is a false positive when anything at all
is found in it. Names and places are listed for the record: patterns do not find them (the
optional model detector or a reviewer does).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from annotations.qa.personal_details.patterns import detect, versions  # noqa: E402

CORPUS = ROOT / "tests" / "privacy" / "corpus" / "planted.jsonl"
GOALS = {"email": 1.0, "phone": 1.0, "url": 1.0, "address": 0.95, "date": 0.95}
FP_GOAL = 0.02


def score(rows: list[dict]) -> dict:
    planted, covered, kind_right = Counter(), Counter(), Counter()
    clean = clean_hits = 0
    missed: list[tuple[str, str]] = []
    for row in rows:
        text = row["text"]
        found = detect(text)
        if not row["details"]:
            clean += 1
            clean_hits += bool(found)
            continue
        for detail in row["details"]:
            start = text.index(detail["text"])
            end = start + len(detail["text"])
            hit = {i for d in found for i in range(d.start, d.end)}
            planted[detail["kind"]] += 1
            if all(i in hit for i in range(start, end)):
                covered[detail["kind"]] += 1
                if any(
                    d.kind.value == detail["kind"] and d.start <= start and d.end >= end
                    for d in found
                ):
                    kind_right[detail["kind"]] += 1
            else:
                missed.append((detail["kind"], detail["text"]))
    return {
        "planted": planted,
        "covered": covered,
        "kind_right": kind_right,
        "clean": clean,
        "clean_hits": clean_hits,
        "missed": missed,
    }


def main() -> None:
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    detect("warm up")  # the recognizers load once per process
    started = time.perf_counter()
    result = score(rows)
    elapsed = time.perf_counter() - started
    print(f"detector {versions()}")
    print(
        f"{len(rows)} messages ({len(rows) - result['clean']} planted, {result['clean']} clean), "
        f"{1000 * elapsed / len(rows):.1f} ms a message"
    )
    print(f"{'kind':10} {'planted':>7} {'covered':>8} {'kind right':>10}  goal")
    total = sum(result["planted"].values())
    pattern_total = pattern_covered = 0
    for kind in sorted(result["planted"]):
        n, c, k = result["planted"][kind], result["covered"][kind], result["kind_right"][kind]
        goal = GOALS.get(kind)
        goal_text = f">= {goal:.0%} {'met' if c / n >= goal else 'NOT met'}" if goal else ""
        if kind != "name":
            pattern_total += n
            pattern_covered += c
        print(f"{kind:10} {n:7} {c / n:8.1%} {k / n:10.1%}  {goal_text}")
    print(
        f"overall (all kinds but names): {pattern_covered / pattern_total:.1%} of {pattern_total}; "
        f"with names {sum(result['covered'].values()) / total:.1%} of {total}"
    )
    fp = result["clean_hits"] / result["clean"]
    print(
        f"false positives on clean messages: {result['clean_hits']}/{result['clean']} = {fp:.1%} "
        f"(goal <= {FP_GOAL:.0%}: {'met' if fp <= FP_GOAL else 'NOT met'})"
    )
    for kind, text in result["missed"]:
        if kind != "name":
            print(f"  missed {kind}: {text!r}")


if __name__ == "__main__":
    main()
