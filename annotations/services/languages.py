"""A participant's language, and the study's texts in it.

A study enables languages (``Study.languages``) and has a default. A participant's language is
chosen once, at start: the one the app asks for (the study link's ``lang`` parameter, else the
browser's), if the study enables it, else the study's default. It is recorded on the
participant (``Participant.language``), and every text the participant sees afterwards comes
in it: the app's own (its catalogs), the study's (``Study.translations``) and the
instrument's (models.InstrumentTranslation). A text without a translation shows the default
language's, which the admin lists as missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from annotations.models import Conversation, Participant, Study
from annotations.models.study import STUDY_TEXT_FIELDS
from annotations.services import instrument_translations
from annotations.services.study_instrument import instrument_of
from attunebench.canonical import canonical_sha256
from attunebench.instrument import Instrument as InstrumentDefinition

# The language the shipped instrument and a study's own fields are written in.
BASE_LANGUAGE = "en"


def resolve_language(study: Study, requested: str) -> str:
    """The enabled language the app asked for (``es-MX`` counts as ``es``), else the default."""
    base = requested.strip().lower().replace("_", "-").split("-")[0]
    return base if base in study.languages else study.default_language


def language_of(participant: Participant) -> str:
    """The participant's recorded language (records from before languages: the default)."""
    return participant.language or participant.study.default_language


def country_of(participant: Participant) -> str:
    """The participant's answer to the profile's ``country`` question ("germany"), or ""
    (not asked, not answered, or no profile yet)."""
    answer = (participant.responses or {}).get("country", "")
    return answer if isinstance(answer, str) else ""


def language_in(conversation: Conversation) -> str:
    """The language of ``conversation``'s participant; a one-language study's without reading
    the participant (the chat's hot path counts its statements)."""
    study = conversation.study
    if len(study.languages) == 1:
        return str(study.languages[0])
    return language_of(conversation.participant)


# --- the study's texts -----------------------------------------------------------------------


def study_texts_hash(study: Study) -> str:
    """The hash of the study's own texts: a translation records it, and is stale once it differs."""
    return canonical_sha256(
        {
            "texts": {name: getattr(study, name) for name in STUDY_TEXT_FIELDS},
            "topics": study.topics,
        }
    )


def stamp_translations(study: Study, stored: dict[str, Any]) -> None:
    """A translation saved now is a translation of the study's texts as they are now: each
    language whose texts are new or changed (against ``stored``, the translations before this
    save) records the base's hash, so a later change of the base alone makes it stale."""
    base = study_texts_hash(study)
    for language, texts in study.translations.items():
        if not isinstance(texts, dict):
            continue  # validate_translations refuses it with a message of its own
        before = stored.get(language)
        if not isinstance(before, dict) or _translated(texts) != _translated(before):
            texts["base_hash"] = base


def _translated(texts: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in texts.items() if name != "base_hash"}


def study_text(study: Study, name: str, language: str) -> str:
    """One of the study's texts in ``language``, else in its default language."""
    if language != study.default_language:
        translated = study.translations.get(language, {}).get(name, "")
        if translated.strip():
            return str(translated)
    return str(getattr(study, name))


def topic_labels(study: Study, language: str) -> dict[str, str]:
    """Labels of the topics and subtopics in ``language``, by the text the study stores (which
    stays the answer's value, so topics compare across languages; a study may store English
    values and show them in its default language too)."""
    return dict(study.translations.get(language, {}).get("topic_labels", {}))


# --- the instrument -------------------------------------------------------------------------


@dataclass(frozen=True)
class ParticipantInstrument:
    definition: InstrumentDefinition
    panas_labels: dict[str, str]
    language: str


def instrument_for(study: Study, language: str) -> ParticipantInstrument:
    """The study's instrument in ``language``: its translation, else the base."""
    if language != BASE_LANGUAGE:
        localized = instrument_translations.localized_instrument(study.instrument_id, language)
        if localized is not None:
            return ParticipantInstrument(localized.definition, localized.panas_labels, language)
    definition = instrument_of(study)
    labels = {item.id: item.id for item in definition.panas_items}
    return ParticipantInstrument(definition, labels, BASE_LANGUAGE)


def support_resources_in(study: Study, language: str, country: str = "") -> str:
    """The support notice's text: the crisis resources of the participant's ``country`` where
    the study lists them, else in ``language``: the study's own (translated), else the
    instrument's (translated)."""
    by_country = (study.support_resources_by_country or {}).get(country, "") if country else ""
    if isinstance(by_country, str) and by_country.strip():
        return by_country.strip()
    own = study_text(study, "support_resources", language).strip()
    return own or instrument_for(study, language).definition.support_resources


# --- what the admin shows -------------------------------------------------------------------


@dataclass(frozen=True)
class LanguageStatus:
    language: str
    instrument: str  # base / missing / incomplete / stale / current
    study_texts: str  # base / missing / incomplete / stale / current
    missing: tuple[str, ...] = ()

    @property
    def needs_work(self) -> bool:
        return (
            "missing" in (self.instrument, self.study_texts)
            or "stale"
            in (
                self.instrument,
                self.study_texts,
            )
            or "incomplete" in (self.instrument, self.study_texts)
        )


def _study_text_state(study: Study, language: str) -> str:
    if language == study.default_language:
        return "base"
    texts = study.translations.get(language)
    if not texts:
        return "missing"
    # No hash: written before translations were stamped, so of no known base.
    if texts.get("base_hash") != study_texts_hash(study):
        return "stale"
    untranslated = [
        name
        for name in STUDY_TEXT_FIELDS
        if str(getattr(study, name)).strip() and not str(texts.get(name, "")).strip()
    ]
    return "incomplete" if untranslated else "current"


def language_statuses(study: Study) -> list[LanguageStatus]:
    """For each enabled language: are the instrument and the study's texts translated, and
    still translations of the current base?"""
    statuses = []
    for language in study.languages:
        instrument = instrument_translations.translation_status(
            study.instrument, language, BASE_LANGUAGE
        )
        statuses.append(
            LanguageStatus(
                language, instrument.state, _study_text_state(study, language), instrument.missing
            )
        )
    return statuses


def describe_statuses(statuses: list[LanguageStatus]) -> list[dict[str, Any]]:
    return [
        {
            "language": s.language,
            "instrument": s.instrument,
            "study_texts": s.study_texts,
            "missing": len(s.missing),
        }
        for s in statuses
    ]
