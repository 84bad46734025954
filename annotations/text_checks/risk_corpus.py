"""The risk model's training corpus: which files it is, how a line reads, and its hash.

The corpus is every ``train_*.jsonl`` file of ``risk_corpus/`` beside this module, one JSON object
a line: ``{"text": "...", "label": "risk" | "everyday", "category": "..."}`` (``category`` is
optional: the scale's kind for risk messages, such as ``wish_to_be_dead`` or ``plan``;
``near_miss`` or ``plain`` for everyday ones). Adding a file is all it takes to train on it
(``manage.py train_risk_model``).

The lexicons of other languages have corpora of their own, in a folder per language
(``risk_corpus/es/``, ``risk_corpus/de/``; ``language_folder``), in the same format: the English
model's glob reads the top folder alone, so it never trains on them.

A held-out file (``heldout_*.jsonl``) lives in the same folder and is never a training input: its
name does not match the glob (a test holds it so). When a held-out set is retired (a new one is
written first), it joins the training corpus by being renamed ``train_*.jsonl``. Pure: no Django.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent / "risk_corpus"
TRAINING_GLOB = "train_*.jsonl"
HELDOUT_GLOB = "heldout_*.jsonl"
LABELS = ("risk", "everyday")


class CorpusError(ValueError):
    """A corpus file that cannot be read as the corpus: names the file and the line."""


@dataclass(frozen=True)
class Example:
    text: str
    risk: bool
    category: str
    source: str  # "<file name>:<line>"


def language_folder(language: str) -> Path:
    """The corpus folder of ``language``: the top folder for English (the model's), else the
    language's own subfolder."""
    return CORPUS_DIR if language == "en" else CORPUS_DIR / language


def corpus_languages() -> list[str]:
    """The languages with a training corpus: English (the top folder) and each subfolder
    holding a training file."""
    others = [d.name for d in CORPUS_DIR.iterdir() if d.is_dir() and training_files(d)]
    return sorted(["en", *others])


def training_files(folder: Path = CORPUS_DIR) -> list[Path]:
    """The training files of ``folder``, sorted by name (the hash depends on the order)."""
    return sorted(folder.glob(TRAINING_GLOB))


def read_examples(files: list[Path]) -> list[Example]:
    examples: list[Example] = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                examples.append(_example(line, f"{path.name}:{number}"))
    return examples


def _example(line: str, where: str) -> Example:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as error:
        raise CorpusError(f"{where}: not a JSON object ({error.msg})") from None
    if not isinstance(row, dict):
        raise CorpusError(f"{where}: not a JSON object")
    text, label, category = row.get("text"), row.get("label"), row.get("category", "")
    if not isinstance(text, str) or not text.strip():
        raise CorpusError(f"{where}: 'text' must be a non-empty string")
    if label not in LABELS:
        raise CorpusError(f"{where}: 'label' must be one of {LABELS}, not {label!r}")
    if not isinstance(category, str):
        raise CorpusError(f"{where}: 'category' must be a string")
    return Example(text=text, risk=label == "risk", category=category or label, source=where)


def file_hashes(files: list[Path]) -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in files}


def corpus_hash(files: list[Path]) -> str:
    """One sha256 over the files' names and contents, in name order."""
    digest = hashlib.sha256()
    for name, file_hash in sorted(file_hashes(files).items()):
        digest.update(f"{name}\0{file_hash}\n".encode())
    return digest.hexdigest()
