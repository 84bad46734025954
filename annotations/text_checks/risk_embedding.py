"""The risk model's sentence embedding: WordLlama's 256-dimension static embeddings (``l2_supercat``),
loaded offline from the installed ``wordllama`` package alone.

WordLlama 0.4.0.post1 looks for a tokenizer under ``wordllama/tokenizer/`` or
``<cache_dir>/tokenizers/``, and downloads it from Hugging Face when neither holds it; the wheel
ships it under ``wordllama/tokenizers/``. So the loader gets a private temporary cache folder
holding a link to the package's own tokenizer file, and downloads disabled: the weights resolve
in the package, the tokenizer in that folder, and a missing file is an error, never a download.
The folder is removed once loaded (both files are read into memory).

A message is embedded as the model's mean of token vectors of the normalised text
(``normalise.py``: the same text the lexicon reads), scaled to unit length. Pure: no Django.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from annotations.text_checks.normalise import normalise

MODEL_NAME = "l2_supercat"
DIMENSIONS = 256
TOKENIZER_FILE = f"{MODEL_NAME}_tokenizer_config.json"


def wordllama_version() -> str:
    return metadata.version("wordllama")


class Embedder:
    """Unit-length sentence vectors of normalised texts (float32, ``DIMENSIONS`` wide)."""

    def __init__(self, model: Any) -> None:
        self._model = model

    def embed(self, texts: list[str]) -> np.ndarray:
        """One row per text; an empty text (after normalisation) is a zero row."""
        normalised = [normalise(text) for text in texts]
        vectors = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        present = [i for i, text in enumerate(normalised) if text]
        if present:
            vectors[present] = self._model.embed([normalised[i] for i in present], norm=True)
        return vectors


def load_embedder() -> Embedder:
    """Load the embedding from the installed package; never downloads (FileNotFoundError if the
    package lacks a file)."""
    wordllama_cls = _import_wordllama()
    package = Path(_package_folder())
    cache = Path(tempfile.mkdtemp(prefix="attune-wordllama-"))
    try:
        (cache / "tokenizers").mkdir()
        tokenizer = package / "tokenizers" / TOKENIZER_FILE
        if not tokenizer.is_file():
            raise FileNotFoundError(f"the wordllama package has no {tokenizer}")
        os.symlink(tokenizer, cache / "tokenizers" / TOKENIZER_FILE)
        model = wordllama_cls.load(
            MODEL_NAME, cache_dir=cache, dim=DIMENSIONS, disable_download=True
        )
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return Embedder(model)


def _package_folder() -> str:
    import wordllama

    return os.path.dirname(wordllama.__file__)


def _import_wordllama() -> Any:
    # wordllama.inference calls logging.basicConfig(level=INFO) when imported: in a process
    # whose logging is not configured yet that would install a root handler and level the
    # project never asked for. Put the root logger back as it was.
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    from wordllama import WordLlama

    root.handlers[:] = handlers
    root.setLevel(level)
    return WordLlama
