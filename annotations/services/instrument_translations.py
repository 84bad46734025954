"""Instruments in other languages: the texts a translation carries, the translated instrument a
participant sees, and which translations are missing, incomplete or stale.

A translation (models.InstrumentTranslation) is a flat map from a text's path to its text.
The paths come from the base instrument itself (``text_paths``), one per participant-facing
text, each naming the item's id:

    intensity_scale.labels.<point>
    panas_items.<id>.label            (the word shown; the base shows the id itself)
    panas_items.<id>.description
    behaviour_questions.<id>.participant_wording
    pairwise_questions.<id>.participant_wording
    conversation_wide.<q1|q2|q3>.prompt / .options.<id>.label, conversation_wide.q3_follow_up.prompt
    four_branches.<id>.label / .participant_wording
    support_resources
    profile.<question id>.prompt / .options.<id>.label / .bands.<id>.label

So a translation can only replace wording: ids, categories, coordinates and the model-facing
wording (what the model under test is asked) stay the base's, and every language's answers
mean the same item. A path the base does not have is refused; a path the translation lacks
shows the base's text and counts as missing in the admin.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from annotations.models import Instrument, InstrumentTranslation
from annotations.models.study import PARTICIPANT_LANGUAGES
from annotations.services.audit import record_audit
from attune_collect.errors import ServiceError
from attunebench.canonical import canonical_sha256
from attunebench.instrument import Instrument as InstrumentDefinition
from attunebench.instrument import load_instrument


class TranslationError(ServiceError):
    default_code = "invalid_translation"


# --- the paths of an instrument's texts --------------------------------------------------------


def _choice_paths(prefix: str, question: dict[str, Any]) -> dict[str, str]:
    texts = {f"{prefix}.prompt": question["prompt"]}
    for option in question.get("options", []):
        texts[f"{prefix}.options.{option['id']}.label"] = option["label"]
    for band in question.get("bands", []):
        texts[f"{prefix}.bands.{band['id']}.label"] = band["label"]
    return texts


def base_texts(definition: dict[str, Any]) -> dict[str, str]:
    """Every participant-facing text of a canonical definition (``Instrument.to_dict()``),
    by path: what a complete translation translates."""
    texts: dict[str, str] = {}
    for point, label in definition["intensity_scale"]["labels"].items():
        texts[f"intensity_scale.labels.{point}"] = label
    for item in definition["panas_items"]:
        texts[f"panas_items.{item['id']}.label"] = item["id"]
        texts[f"panas_items.{item['id']}.description"] = item["description"]
    for group in ("behaviour_questions", "pairwise_questions"):
        for question in definition[group]:
            texts[f"{group}.{question['id']}.participant_wording"] = question["participant_wording"]
    for key, question in definition["conversation_wide"].items():
        texts.update(_choice_paths(f"conversation_wide.{key}", question))
    for branch in definition["four_branches"]:
        texts[f"four_branches.{branch['id']}.label"] = branch["label"]
        texts[f"four_branches.{branch['id']}.participant_wording"] = branch["participant_wording"]
    texts["support_resources"] = definition["support_resources"]
    for question in definition.get("profile", {}).get("questions", []):
        texts.update(_choice_paths(f"profile.{question['id']}", question))
    # Empty base texts (an optional description) need no translation.
    return {path: text for path, text in texts.items() if text}


def text_paths(instrument: Instrument) -> dict[str, str]:
    return base_texts(instrument.parsed().to_dict())


# --- applying a translation ------------------------------------------------------------------


def _by_id(items: list[dict[str, Any]], item_id: str) -> dict[str, Any]:
    return next(item for item in items if item["id"] == item_id)


def _set_choice(question: dict[str, Any], rest: list[str], text: str) -> None:
    if rest == ["prompt"]:
        question["prompt"] = text
    else:  # options.<id>.label or bands.<id>.label
        _by_id(question[rest[0]], rest[1])["label"] = text


def translated_definition(
    base: dict[str, Any], texts: dict[str, str]
) -> tuple[dict[str, Any], dict[str, str]]:
    """The base definition with ``texts`` in place, and the PANAS items' shown labels."""
    data = copy.deepcopy(base)
    labels = {item["id"]: item["id"] for item in data["panas_items"]}
    for path, text in texts.items():
        head, *rest = path.split(".")
        if head == "intensity_scale":
            data["intensity_scale"]["labels"][rest[1]] = text
        elif head == "panas_items" and rest[1] == "label":
            labels[rest[0]] = text
        elif head in ("panas_items", "behaviour_questions", "pairwise_questions", "four_branches"):
            _by_id(data[head], rest[0])[rest[1]] = text
        elif head == "conversation_wide":
            question = data["conversation_wide"][rest[0]]
            _set_choice(question, rest[1:], text)
        elif head == "support_resources":
            data["support_resources"] = text
        elif head == "profile":
            _set_choice(_by_id(data["profile"]["questions"], rest[0]), rest[1:], text)
    return data, labels


@dataclass(frozen=True)
class LocalizedInstrument:
    definition: InstrumentDefinition
    panas_labels: dict[str, str]
    language: str
    content_hash: str


_lock = threading.Lock()
_cache: dict[tuple[int, str, str], LocalizedInstrument] = {}


def localized_instrument(instrument_id: int, language: str) -> LocalizedInstrument | None:
    """The instrument in ``language``, or None when it has no translation in it (the caller
    shows the base). Cached per translation content (a new text is a new hash)."""
    row = (
        InstrumentTranslation.objects.filter(instrument_id=instrument_id, language=language)
        .values_list("content_hash", flat=True)
        .first()
    )
    if row is None:
        return None
    key = (instrument_id, language, row)
    found = _cache.get(key)
    if found is not None:
        return found
    translation = InstrumentTranslation.objects.select_related("instrument").get(
        instrument_id=instrument_id, language=language
    )
    base = translation.instrument.parsed().to_dict()
    data, labels = translated_definition(base, translation.texts)
    localized = LocalizedInstrument(load_instrument(data), labels, language, row)
    with _lock:
        _cache[key] = localized
    return localized


# --- writing and checking translations --------------------------------------------------------


def _check_texts(instrument: Instrument, texts: object) -> dict[str, str]:
    if not isinstance(texts, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in texts.items()
    ):
        raise TranslationError("texts: expected an object of text path -> text.")
    known = text_paths(instrument)
    unknown = sorted(set(texts) - set(known))
    if unknown:
        raise TranslationError(f"texts: not a text of {instrument}: {unknown[:5]}")
    empty = sorted(path for path, text in texts.items() if not text.strip())
    if empty:
        raise TranslationError(f"texts: empty translations: {empty[:5]}")
    return texts


@transaction.atomic
def save_translation(
    instrument: Instrument, language: str, texts: dict[str, str], *, actor_label: str
) -> InstrumentTranslation:
    """Create or replace the translation of ``instrument`` into ``language``, as a translation
    of the instrument's current content (its hash), with an audit entry."""
    if language not in PARTICIPANT_LANGUAGES:
        raise TranslationError(f"language: one of {list(PARTICIPANT_LANGUAGES)}.")
    checked = _check_texts(instrument, texts)
    data, labels = translated_definition(instrument.parsed().to_dict(), checked)
    content_hash = canonical_sha256(
        {"definition": load_instrument(data).to_dict(), "labels": labels}
    )
    translation, created = InstrumentTranslation.objects.update_or_create(
        instrument=instrument,
        language=language,
        defaults={
            "texts": checked,
            "base_hash": instrument.content_hash,
            "content_hash": content_hash,
        },
    )
    record_audit(
        "annotations.instrument_translation.save",
        target=translation,
        actor_label=actor_label,
        data={
            "language": language,
            "created": created,
            "base_hash": instrument.content_hash,
            "content_hash": content_hash,
            "texts": len(checked),
        },
    )
    return translation


@dataclass(frozen=True)
class TranslationStatus:
    language: str
    state: str  # "base", "missing", "incomplete", "stale" or "current"
    missing: tuple[str, ...] = ()

    @property
    def needs_work(self) -> bool:
        return self.state in ("missing", "incomplete", "stale")


def translation_status(
    instrument: Instrument, language: str, base_language: str
) -> TranslationStatus:
    """Whether ``instrument`` reads well in ``language``: the base language needs nothing; a
    translation is stale once the base changed after it, incomplete while texts lack."""
    if language == base_language:
        return TranslationStatus(language, "base")
    translation = instrument.translations.filter(language=language).first()
    if translation is None:
        return TranslationStatus(language, "missing")
    if translation.base_hash != instrument.content_hash:
        return TranslationStatus(language, "stale")
    missing = tuple(sorted(set(text_paths(instrument)) - set(translation.texts)))
    return TranslationStatus(language, "incomplete" if missing else "current", missing)
