"""Versioned prompt templates: one folder per prompt set (``v1/``...), one ``.txt`` per piece.

Templates use ``string.Template`` placeholders (``$message``), so the JSON braces in them need
no escaping. A prompt set's version id (e.g. ``v1-3fa2b1c09d7e``) is its folder name plus a hash
of every file's name and text and of the answer schemas' version: it is stored with every result,
so two runs are comparable exactly when their ids are equal, and editing a template without
renaming the folder still changes the id.

To change a prompt for real runs, copy the folder to ``v<N+1>/`` and edit there: results of the
earlier sets stay reproducible. ``v2`` added the conversation's language (``language.txt``, shown
at the top of every request as ``$language_note``); ``v1`` has no such piece, and a request
rendered from it says nothing about the language, as it did.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from string import Template
from types import MappingProxyType
from typing import Any

from attunebench.language import language_name
from attunebench.schemas import SCHEMA_VERSION

PROMPTS_DIR = Path(__file__).resolve().parent
DEFAULT_PROMPT_SET = "v2"
LANGUAGE_PIECE = "language"


@dataclass(frozen=True)
class PromptSet:
    name: str
    version_id: str
    templates: MappingProxyType[str, Template]

    def render(self, piece: str, **values: Any) -> str:
        """The piece with every placeholder filled; a missing value is a bug, so it raises."""
        return self.templates[piece].substitute(values)

    def language_note(self, language: str) -> str:
        """What a request says about the conversation's language (a BCP 47 tag); "" for a
        prompt set from before languages, which has no ``language`` piece."""
        if LANGUAGE_PIECE not in self.templates:
            return ""
        return self.render(LANGUAGE_PIECE, language=language, language_name=language_name(language))


@functools.cache
def load_prompt_set(name: str = DEFAULT_PROMPT_SET, root: Path = PROMPTS_DIR) -> PromptSet:
    folder = root / name
    files = sorted(folder.glob("*.txt"))
    if not files:
        raise ValueError(f"no prompt set {name!r} in {root}")
    digest = hashlib.sha256(f"schemas {SCHEMA_VERSION}\n".encode())
    templates: dict[str, Template] = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        digest.update(f"{path.name}\0{len(text)}\0{text}".encode())
        # Files end with a newline for editors' sake; the pieces are joined by the caller.
        templates[path.stem] = Template(text.rstrip("\n"))
    return PromptSet(
        name=name,
        version_id=f"{name}-{digest.hexdigest()[:12]}",
        templates=MappingProxyType(templates),
    )
