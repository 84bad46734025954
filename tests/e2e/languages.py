"""What the language tests compare a page with: every English text the participant app can
show (its catalog, frontend/src/i18n/locales/en.ts) and every English text of the instrument.
A Spanish page must show none of them, except the words Spanish spells the same way."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "frontend" / "src" / "i18n" / "locales"
_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
_PLACEHOLDER = re.compile(r"\{\{[^}]*\}\}")
# Names, not English: the same in every language.
_NAMES = {"Prolific", "Attune", "ID", "A", "B", "IA", "AI"}

# The page's text without what participants and the model wrote (the demo model answers in
# English whatever the page's language), nor the completion code.
_VISIBLE_TEXT = """() => {
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll(".message-text, .compare-reply blockquote, .code, textarea").forEach(n => n.remove());
  document.body.appendChild(copy);
  copy.style.position = "absolute";
  const text = copy.innerText;
  copy.remove();
  return document.title + "\\n" + text;
}"""


def catalog_texts(language: str) -> list[str]:
    """The texts of a catalog: its string literals (keys are bare names), split at placeholders."""
    source = (LOCALES / f"{language}.ts").read_text(encoding="utf-8")
    fragments = []
    for literal in _LITERAL.findall(source):
        for part in _PLACEHOLDER.split(
            literal.encode().decode("unicode_escape").encode("latin-1").decode()
        ):
            part = part.strip(" .,:;?!()·/=“”«»\n")
            if part:
                fragments.append(part)
    return fragments


def english_texts(instrument_texts: dict[str, str], spanish_texts: dict[str, str]) -> set[str]:
    """English the Spanish pages must not show: the app's catalog and the instrument's texts,
    less those Spanish writes the same (a cognate like "Irritable", "No", "India")."""
    spanish = " ".join(catalog_texts("es")) + " " + " ".join(spanish_texts.values())
    candidates = set(catalog_texts("en")) | {
        text for path, text in instrument_texts.items() if spanish_texts.get(path) != text
    }
    return {
        text
        for text in candidates
        if not set(re.findall(r"\w+", text)) <= _NAMES
        and not re.search(rf"(?<!\w){re.escape(text)}(?!\w)", spanish)
    }


def english_left(page: Page, english: set[str]) -> list[str]:
    shown = page.evaluate(_VISIBLE_TEXT)
    return sorted(t for t in english if re.search(rf"(?<!\w){re.escape(t)}(?!\w)", shown))
