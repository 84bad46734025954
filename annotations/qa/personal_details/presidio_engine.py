"""presidio's analyzer as the pattern detector runs it (``patterns.detect``): its recognizers
over a blank English spaCy tokenizer, the e-mail recognizer offline, and the project's extra
patterns. A module of its own so that presidio and spaCy (about 1.5 s and tens of MB at import)
load at the first scan, not in every process that imports the detector."""

from __future__ import annotations

import functools
import re

import spacy
import tldextract
from presidio_analyzer import AnalyzerEngine, Pattern, PatternRecognizer, RecognizerRegistry
from presidio_analyzer.nlp_engine import SpacyNlpEngine
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    DateRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
    NhsRecognizer,
    PhoneRecognizer,
    UkNinoRecognizer,
    UkPostcodeRecognizer,
    UrlRecognizer,
    UsSsnRecognizer,
)


class _BlankSpacyEngine(SpacyNlpEngine):
    """presidio's spaCy engine over a blank English tokenizer: no model, nothing downloaded."""

    def __init__(self) -> None:
        super().__init__(models=[{"lang_code": "en", "model_name": "blank:en"}])
        self.load()

    def load(self) -> None:
        self.nlp = {"en": spacy.blank("en")}  # type: ignore[assignment]  # typed None upstream


class _OfflineEmailRecognizer(EmailRecognizer):
    """presidio's e-mail recognizer, checking the domain against tldextract's bundled snapshot
    of the public-suffix list (its default fetches the list from the internet)."""

    _extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

    def validate_result(self, pattern_text: str) -> bool:
        return self._extract(pattern_text).fqdn != ""


# (entity, name, regex, score) of a pattern recognizer of the project's own.
ExtraRecognizer = tuple[str, str, str, float]


@functools.cache
def analyzer(
    phone_regions: tuple[str, ...], extra_recognizers: tuple[ExtraRecognizer, ...]
) -> AnalyzerEngine:
    """The analyzer for the detector's settings (``patterns.PHONE_REGIONS``,
    ``patterns.EXTRA_RECOGNIZERS``), built once per process."""
    registry = RecognizerRegistry(supported_languages=["en"])
    for recognizer in (
        _OfflineEmailRecognizer(),
        UrlRecognizer(),
        PhoneRecognizer(supported_regions=list(phone_regions), leniency=1),
        DateRecognizer(),
        IbanRecognizer(),
        CreditCardRecognizer(),
        UsSsnRecognizer(),
        UkNinoRecognizer(),
        NhsRecognizer(),
        IpRecognizer(),
    ):
        registry.add_recognizer(recognizer)
    # presidio's UK postcode pattern, trusted without context words and case-sensitive.
    uk_postcodes = [("UK_POSTCODE", p.name, p.regex, 0.5) for p in UkPostcodeRecognizer.PATTERNS]
    for entity, name, regex, score in (*extra_recognizers, *uk_postcodes):
        registry.add_recognizer(
            PatternRecognizer(
                supported_entity=entity,
                name=f"{entity.lower()}:{name}",
                patterns=[Pattern(name, regex, score)],
                # presidio ignores case by default; these say where case matters themselves.
                global_regex_flags=re.DOTALL | re.MULTILINE,
            )
        )
    return AnalyzerEngine(
        nlp_engine=_BlankSpacyEngine(), registry=registry, supported_languages=["en"]
    )
