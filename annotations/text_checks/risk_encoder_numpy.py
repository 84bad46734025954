"""all-MiniLM-L6-v2's forward pass written out in numpy, fp32: the reference the ONNX Runtime
encoder (``risk_encoder.py``, the one the risk check runs) is checked against, per message, by
``tests/safety/test_risk_encoder_matches_reference.py`` and ``benchmarks/risk_encoders.py``.

The forward pass sentence-transformers runs for this model: embeddings + 6 post-norm encoder
layers (12 heads, exact GELU), mean of the token vectors, scaled to unit length; one message at
a time, no padding. Pure: no Django.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from annotations.text_checks.risk_encoder import (
    DIMENSIONS,
    EPSILON,
    HEADS,
    LAYERS,
    model_folder,
    read_tokenizer,
    read_weights,
)


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


class NumpyEncoder:
    """Unit-length sentence vectors (float32, ``DIMENSIONS`` wide) of raw texts: the same
    interface as ``risk_encoder.Encoder``."""

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
                vectors[i] = self.embed_one(text)
        return vectors


def read_numpy_encoder() -> NumpyEncoder:
    """The reference encoder from the installed package's files (never a download)."""
    folder = model_folder()
    return NumpyEncoder(read_weights(folder), read_tokenizer(folder))
