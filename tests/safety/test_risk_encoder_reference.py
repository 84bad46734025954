"""The numpy forward pass is all-MiniLM-L6-v2 as sentence-transformers runs it: the package's
weights are the published ones (sha256), and the cosine similarities its quickstart prints for
three sentences come out the same (1.0000, 0.6660, 0.1046: computed there with PyTorch)."""

from __future__ import annotations

import hashlib

import pytest

from annotations.text_checks.risk_encoder import (
    DIMENSIONS,
    MAX_TOKENS,
    WEIGHTS_SHA256,
    load_encoder,
    model_folder,
)

QUICKSTART = ("The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium.")


def test_the_packaged_weights_are_the_published_ones():
    digest = hashlib.sha256((model_folder() / "model.safetensors").read_bytes()).hexdigest()
    assert digest == WEIGHTS_SHA256


def test_the_quickstart_similarities_come_out_as_published():
    vectors = load_encoder().embed(list(QUICKSTART))
    assert vectors.shape == (3, DIMENSIONS)
    similarities = vectors @ vectors[0]
    assert similarities.tolist() == pytest.approx([1.0, 0.6660, 0.1046], abs=5e-4)


def test_a_long_message_is_truncated_at_max_tokens():
    encoder = load_encoder()
    assert len(encoder.token_ids("word " * 500)) == MAX_TOKENS
    assert len(encoder.token_ids("hi")) == 3  # [CLS] hi [SEP], no padding
