"""The model mode's answers as spans: each detail the model quoted, located in the text by exact
substring, and merged with the pattern findings. Pure (the call is the service's:
``annotations/qa/services/personal_detail_model.py``; the benchmark uses this too).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from annotations.qa.personal_details.kinds import DetailKind
from annotations.qa.personal_details.patterns import Detection
from attune_collect.llm.personal_details import QuotedDetail

DETECTOR = "model"
# A model names no confidence: its findings count as fairly likely (above the release's
# ``AUTO_THRESHOLD``, so ``--redaction auto`` applies them) and below a pattern's certainty.
SCORE = 0.6
KIND = {
    "name": DetailKind.NAME,
    "place": DetailKind.PLACE,
    "organisation": DetailKind.PLACE,
    "other": DetailKind.OTHER,
}


def locate(text: str, quote: str) -> list[tuple[int, int]]:
    """Every place ``quote`` stands in ``text`` as written, not inside a longer word (a quote
    the text does not hold, a model's paraphrase, is no span)."""
    spans = []
    for match in re.finditer(re.escape(quote), text):
        start, end = match.span()
        if quote[0].isalnum() and start > 0 and text[start - 1].isalnum():
            continue
        if quote[-1].isalnum() and end < len(text) and text[end].isalnum():
            continue
        spans.append((start, end))
    return spans


def detections(text: str, quoted: Sequence[QuotedDetail], version: str) -> list[Detection]:
    found = {
        (start, end, KIND[detail.kind])
        for detail in quoted
        for start, end in locate(text, detail.text)
    }
    return [
        Detection(kind, start, end, SCORE, detector=DETECTOR, detector_version=version)
        for start, end, kind in sorted(found)
    ]


def merged(by_patterns: Sequence[Detection], by_model: Sequence[Detection]) -> list[Detection]:
    """The pattern findings, and the model's that overlap none of them (a pattern's span is
    exact; the model adds what patterns cannot find)."""
    result = list(by_patterns)
    for found in by_model:
        if not any(found.start < p.end and p.start < found.end for p in by_patterns):
            result.append(found)
    return result
