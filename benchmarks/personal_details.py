"""Score the pattern detector on the planted corpus: recall per kind, false positives on clean.

    .venv/bin/python benchmarks/personal_details.py
    .venv/bin/python benchmarks/personal_details.py --model attune-demo/listener

``--model`` adds the model mode (patterns first, then the model's quotes located by exact
substring, as a scan does) through the gateway. The demo provider's answer is a capitalised-word
heuristic, not a model: with it the figure measures the plumbing (prompt, schema check, span
location, merge), and names need a real model (``--model`` accepts any litellm model name, with
``--api-base``; this script never picks one).

A planted detail is found when the detector's spans cover every character of it (what a
release needs: a half-redacted phone number still leaks); "kind right" also asks that a
covering span has the planted kind. A clean message is a false positive when anything at all
is found in it. Names and places are listed for the record: patterns do not find them (the
optional model detector or a reviewer does).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from annotations.qa.personal_details import model_spans  # noqa: E402
from annotations.qa.personal_details.patterns import Detection, detect, versions  # noqa: E402
from attune_collect.llm import EndpointConfig, default_gateway  # noqa: E402
from attune_collect.llm.personal_details import PROMPT_VERSION, DetailsUnreadable  # noqa: E402

CORPUS = ROOT / "tests" / "privacy" / "corpus" / "planted.jsonl"
GOALS = {"email": 1.0, "phone": 1.0, "url": 1.0, "address": 0.95, "date": 0.95}
FP_GOAL = 0.02


def model_detections(
    rows: list[dict], endpoint: EndpointConfig
) -> tuple[list[list[Detection]], int]:
    """The model's spans for every message (concurrently, under the endpoint's limits), and how
    many answers were unreadable (counted, then ignored, as a scan does)."""

    async def ask_all() -> list:
        gateway = default_gateway()
        return await asyncio.gather(
            *(gateway.find_personal_details(endpoint, row["text"]) for row in rows),
            return_exceptions=True,
        )

    answers = asyncio.run(ask_all())
    spans: list[list[Detection]] = []
    unreadable = 0
    for row, answer in zip(rows, answers, strict=True):
        if isinstance(answer, DetailsUnreadable):
            unreadable += 1
            answer = []
        elif isinstance(answer, BaseException):
            raise answer
        spans.append(model_spans.detections(row["text"], answer, PROMPT_VERSION))
    return spans, unreadable


def score(rows: list[dict], by_model: list[list[Detection]] | None = None) -> dict:
    planted, covered, kind_right = Counter(), Counter(), Counter()
    clean = clean_hits = 0
    missed: list[tuple[str, str]] = []
    for index, row in enumerate(rows):
        text = row["text"]
        found = detect(text)
        if by_model is not None:
            found = model_spans.merged(found, by_model[index])
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="add the model mode: a litellm model name")
    parser.add_argument("--api-base", default=None)
    args = parser.parse_args()
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    detect("warm up")  # the recognizers load once per process
    started = time.perf_counter()
    by_model = None
    if args.model:
        endpoint = EndpointConfig(
            name="personal-details", model=args.model, api_base=args.api_base, max_concurrency=8
        )
        by_model, unreadable = model_detections(rows, endpoint)
        print(f"model mode {PROMPT_VERSION} on {args.model}: {unreadable} unreadable answer(s)")
    result = score(rows, by_model)
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
