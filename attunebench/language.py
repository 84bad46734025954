"""The language of a conversation: a BCP 47 primary language tag ("en", "es", "ar").

A conversation file carries it as ``metadata.language`` (an open key of the metadata object,
so files without it stay valid AttuneBench files). Files written before studies had languages,
and the reference dataset, have none: every conversation of those was in English, so a missing
language reads as ``"en"``. A value that is no language tag at all (an import's free text)
reads as ``"und"``, BCP 47's "undetermined", rather than as a language it may not be.

Pure (no Django): the release writer, the evaluation prompts and the report's language
subgroup all ask here, so they cannot disagree about a conversation's language.
"""

from __future__ import annotations

import re
from dataclasses import replace

from attunebench.records import Conversation

LANGUAGE_KEY = "language"  # the key in a conversation file's metadata
DEFAULT_LANGUAGE = "en"  # the language of a conversation that names none (older data)
UNDETERMINED = "und"

# A primary language subtag: two or three letters (ISO 639); the tag may go on with a region
# or script ("es-MX", "zh_Hant"), which a language column does not split conversations by.
_PRIMARY = re.compile(r"[a-z]{2,3}")

# English names the prompts give the model; a language not listed is named by its tag.
_NAMES: dict[str, str] = {
    "ar": "Arabic",
    "de": "German",
    "en": "English",
    "es": "Spanish",
    "fa": "Persian",
    "fr": "French",
    "he": "Hebrew",
    "hi": "Hindi",
    "it": "Italian",
    "ja": "Japanese",
    "ko": "Korean",
    "nl": "Dutch",
    "pl": "Polish",
    "pt": "Portuguese",
    "ru": "Russian",
    "sv": "Swedish",
    "tr": "Turkish",
    "uk": "Ukrainian",
    "ur": "Urdu",
    "zh": "Chinese",
}


def primary_language(tag: object) -> str | None:
    """The lowercase primary subtag of a BCP 47 tag (``"es-MX"`` -> ``"es"``), or None when
    ``tag`` is not one (empty, not text, or no two- or three-letter language first)."""
    if not isinstance(tag, str):
        return None
    primary = tag.strip().lower().replace("_", "-").split("-")[0]
    return primary if _PRIMARY.fullmatch(primary) else None


def conversation_language(conversation: Conversation) -> str:
    """The conversation's language: its ``metadata.language`` as a primary tag, ``"en"`` when
    the file names none, ``"und"`` when it names something that is no language tag."""
    raw = conversation.metadata.other.get(LANGUAGE_KEY)
    if raw is None or raw == "":
        return DEFAULT_LANGUAGE
    return primary_language(raw) or UNDETERMINED


def with_language(conversation: Conversation, language: str) -> Conversation:
    """The conversation with ``metadata.language`` set (the platform's participant language)."""
    other = {**conversation.metadata.other, LANGUAGE_KEY: language}
    return replace(conversation, metadata=replace(conversation.metadata, other=other))


def language_name(tag: str) -> str:
    """The English name of a language for a prompt ("Spanish"); an unlisted one by its tag."""
    primary = primary_language(tag)
    if primary is None or primary == UNDETERMINED:
        return "an undetermined language"
    return _NAMES.get(primary, f'the language with the tag "{primary}"')
