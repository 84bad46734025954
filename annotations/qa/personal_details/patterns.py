"""The pattern detector: presidio-analyzer's recognizers and phonenumbers, no model. Pure.

presidio's default NLP engine loads a trained spaCy pipeline, which cannot be installed from PyPI
and must never be downloaded at run time; its pattern recognizers need none of it. The engine
(``presidio_engine.py``, loaded at the first scan) hands them a blank English tokenizer
(``spacy.blank("en")``: a tokenizer, no weights), so nothing is loaded from outside the wheels. Person and place names need a model: they are the optional
model detector's (``annotations/qa/services/personal_details.py``), never this one's.

What it finds: e-mail addresses (presidio, with the public-suffix snapshot that tldextract ships,
never the online list), phone numbers in the formats of ``PHONE_REGIONS`` and any number written
with its +country code (phonenumbers), URLs, social handles (``@name``), street addresses and
postcodes (UK, US ZIP after a state, Canadian), dates (presidio's numeric forms and dates written
with a month's name), and ID-like numbers (IBAN, card numbers, US SSN, UK NI and NHS numbers, IP
addresses).
"""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass

from annotations.qa.personal_details.kinds import DetailKind

# Bumped whenever the recognizers or their settings change: a text scanned by an older version
# is scanned again before a release (and by ``manage.py scan_personal_details``).
PATTERN_VERSION = "patterns-1"
DETECTOR = "patterns"

# phonenumbers reads national formats region by region (an international "+44 ..." is read
# whatever the region); the participant pools the platform recruits from.
PHONE_REGIONS = ("GB", "US", "IE", "AU", "NZ", "IN", "DE", "FR", "NL", "ES", "IT", "ZA", "NG")

_ENTITY_KIND: dict[str, DetailKind] = {
    "EMAIL_ADDRESS": DetailKind.EMAIL,
    "PHONE_NUMBER": DetailKind.PHONE,
    "URL": DetailKind.URL,
    "HANDLE": DetailKind.HANDLE,
    "STREET_ADDRESS": DetailKind.ADDRESS,
    "UK_POSTCODE": DetailKind.POSTCODE,
    "POSTCODE": DetailKind.POSTCODE,
    "DATE_TIME": DetailKind.DATE,
    "WRITTEN_DATE": DetailKind.DATE,
    "IBAN_CODE": DetailKind.ID_NUMBER,
    "CREDIT_CARD": DetailKind.ID_NUMBER,
    "US_SSN": DetailKind.ID_NUMBER,
    "UK_NINO": DetailKind.ID_NUMBER,
    "UK_NHS": DetailKind.ID_NUMBER,
    "IP_ADDRESS": DetailKind.ID_NUMBER,
}
# When two findings of one length overlap, the more specific kind keeps the span.
_PRIORITY = {
    DetailKind.EMAIL: 0,
    DetailKind.URL: 1,
    DetailKind.ADDRESS: 2,
    DetailKind.ID_NUMBER: 3,
    DetailKind.PHONE: 4,
    DetailKind.HANDLE: 5,
    DetailKind.POSTCODE: 6,
    DetailKind.DATE: 7,
    DetailKind.NAME: 8,
    DetailKind.PLACE: 9,
}
# presidio scores a bare pattern match low until context words lift it; these are the floors
# below which a match is noise (a 4-digit number read as a date, ...).
MIN_SCORE = 0.3

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_STREET = (
    r"(?:street|st|road|rd|avenue|ave|lane|ln|drive|dr|close|way|court|ct|place|pl|crescent"
    r"|terrace|boulevard|blvd|gardens|grove|square|sq|hill|park|row|parade|mews|walk)"
)
# Words of "10 minutes down the road", never of a street's name.
_NOT_A_STREET_WORD = (
    r"(?:the|a|an|my|his|her|our|their|your|down|up|to|of|on|in|at|from|along|across|over"
    r"|minutes?|mins?|hours?|hrs?|miles?|km|metres?|meters?|times?|days?|weeks?|years?)"
)
EXTRA_RECOGNIZERS = (
    # @name on the social networks the participants mention; an e-mail's "@" is not one
    # (the e-mail wins the overlap, and the lookbehind refuses "x@y").
    ("HANDLE", "handle", r"(?<![\w.@])@[A-Za-z0-9_](?:[A-Za-z0-9_.]{1,28}[A-Za-z0-9_])?\b", 0.6),
    (
        "STREET_ADDRESS",
        "street address",
        r"(?i:\b(?:(?:flat|apt|apartment|unit)\s?\d{1,4}[a-z]?,?\s+)?\d{1,5}[a-z]?,?\s+"
        rf"(?:(?!{_NOT_A_STREET_WORD}\s)[a-z0-9][a-z0-9'\-]*\s+){{1,3}}"
        rf"{_STREET}\b\.?)(?:,\s?[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)?",
        0.6,
    ),
    # US ZIP after a state's two letters ("CA 94103"), Canadian "M5V 2T6".
    ("POSTCODE", "US ZIP", r"\b[A-Z]{2}\s\d{5}(?:-\d{4})?\b", 0.5),
    ("POSTCODE", "Canadian postcode", r"\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b", 0.5),
    (
        "WRITTEN_DATE",
        "day month year",
        rf"(?i)\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\.?,?\s+\d{{4}}\b",
        0.6,
    ),
    (
        "WRITTEN_DATE",
        "month day year",
        rf"(?i)\b{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b",
        0.6,
    ),
)


@dataclass(frozen=True)
class Detection:
    """One personal detail in a text: its kind, span (start inclusive, end exclusive) and score."""

    kind: DetailKind
    start: int
    end: int
    score: float
    detector: str = DETECTOR
    detector_version: str = PATTERN_VERSION


def versions() -> dict[str, str]:
    """The detector's version and those of the libraries it runs on (cards and manifests)."""
    return {
        "detector": PATTERN_VERSION,
        "presidio-analyzer": importlib.metadata.version("presidio-analyzer"),
        "phonenumbers": importlib.metadata.version("phonenumbers"),
    }


def detect(text: str) -> list[Detection]:
    """The personal details in ``text``, without overlaps, in text order."""
    if not text.strip():
        return []
    # presidio and spaCy load here, at the first scan, not when a process imports this module:
    # every web and worker process imports it (the release and QA services), few scan.
    from annotations.qa.personal_details.presidio_engine import analyzer

    found: list[Detection] = []
    engine = analyzer(PHONE_REGIONS, EXTRA_RECOGNIZERS)
    for result in engine.analyze(text, language="en", score_threshold=MIN_SCORE):
        kind = _ENTITY_KIND.get(result.entity_type)
        if kind is None:
            continue
        start, end = _trim(text, result.start, result.end)
        if end > start:
            found.append(Detection(kind, start, end, round(float(result.score), 3)))
    return resolve_overlaps(found)


def resolve_overlaps(found: list[Detection]) -> list[Detection]:
    """Keep one finding per stretch of text: the longer span (an e-mail over the domain in
    it, a handle over the name after its "@", an address over its postcode), then the more
    specific kind."""
    ranked = sorted(found, key=lambda d: (-(d.end - d.start), _PRIORITY[d.kind], d.start))
    kept: list[Detection] = []
    for detection in ranked:
        if all(detection.end <= k.start or detection.start >= k.end for k in kept):
            kept.append(detection)
    return sorted(kept, key=lambda d: d.start)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop the trailing punctuation a URL or address pattern swallows ("see x.org/a,")."""
    while end > start and text[end - 1] in ".,;:!?)]}'\"":
        end -= 1
    while start < end and text[start].isspace():
        start += 1
    return start, end
