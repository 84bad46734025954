"""Consistent placeholders within one conversation. Pure.

One detail reads the same wherever it appears in a conversation: "Priya" in turn 1, in turn 4
and in the participant's edited reply is "[NAME_1]" every time, a second name "[NAME_2]". Two
spans are the same detail when they are of one kind and their text matches once case, spaces
and (for phones) punctuation are ignored. Numbers follow the order of first appearance in the
record's reading order, so a rebuild writes the same bytes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from annotations.qa.personal_details.kinds import PLACEHOLDER_WORD, DetailKind


@dataclass(frozen=True)
class Span:
    """A span of one text to redact."""

    path: str
    start: int
    end: int
    kind: DetailKind


def _identity(kind: DetailKind, surface: str) -> str:
    if kind in (DetailKind.PHONE, DetailKind.ID_NUMBER):
        return re.sub(r"\D", "", surface) or surface.casefold()
    return " ".join(surface.casefold().split())


def redact_texts(
    texts: Mapping[str, str], spans: Iterable[Span], written: Counter[str] | None = None
) -> dict[str, str]:
    """The texts with every span replaced by its placeholder; only changed texts are returned.

    ``texts`` must be in reading order (``texts.record_texts``). Overlapping spans of one text
    are merged into the first (an edited span never leaves a fragment of the detail behind).
    ``written`` counts the placeholders written, by kind (a release's redacted spans).
    """
    by_path: dict[str, list[Span]] = {}
    for span in spans:
        if span.path in texts and 0 <= span.start < span.end <= len(texts[span.path]):
            by_path.setdefault(span.path, []).append(span)
    numbers: dict[tuple[DetailKind, str], int] = {}
    counters: dict[DetailKind, int] = {}
    redacted: dict[str, str] = {}
    for path, text in texts.items():  # reading order: numbers by first appearance
        merged = _merge(sorted(by_path.get(path, []), key=lambda s: (s.start, -s.end)))
        if not merged:
            continue
        pieces: list[str] = []
        cursor = 0
        for span in merged:
            key = (span.kind, _identity(span.kind, text[span.start : span.end]))
            if key not in numbers:
                counters[span.kind] = counters.get(span.kind, 0) + 1
                numbers[key] = counters[span.kind]
            pieces.append(text[cursor : span.start])
            pieces.append(f"[{PLACEHOLDER_WORD[span.kind]}_{numbers[key]}]")
            if written is not None:
                written[span.kind.value] += 1
            cursor = span.end
        pieces.append(text[cursor:])
        redacted[path] = "".join(pieces)
    return redacted


def _merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for span in spans:
        if merged and span.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = Span(last.path, last.start, max(last.end, span.end), last.kind)
        else:
            merged.append(span)
    return merged


def repeats(texts: Mapping[str, str], surfaces: Mapping[str, DetailKind]) -> list[Span]:
    """Every whole-word occurrence, as typed (case-sensitive), of each surface in the texts.

    A detail a reviewer accepted or marked once is the same detail wherever else it is
    written: "Priya" marked in turn 1 is redacted in turn 4 and in the model's reply too.
    Whole-word: "Priya's" has it, "Priyanka" does not.
    """
    spans: list[Span] = []
    for surface, kind in surfaces.items():
        word = surface.strip()
        if not word:
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
        for path, text in texts.items():
            spans += [Span(path, m.start(), m.end(), kind) for m in pattern.finditer(text)]
    return spans
