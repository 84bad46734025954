"""The encoder is all-MiniLM-L6-v2 as sentence-transformers runs it: the package's weights are the
published ones (sha256), and the cosine similarities its quickstart prints for three sentences
come out the same (1.0000, 0.6660, 0.1046: computed there with PyTorch). The numpy reference and
ONNX Runtime's fp32 graph give them to 5e-4; the int8 graph the risk check runs to
``INT8_TOLERANCE`` (its weights are rounded to 256 levels per output column)."""

from __future__ import annotations

import hashlib

import pytest

from annotations.text_checks.risk_encoder import (
    DIMENSIONS,
    MAX_TOKENS,
    PRECISION,
    WEIGHTS_SHA256,
    load_encoder,
    model_folder,
    read_encoder,
)
from annotations.text_checks.risk_encoder_numpy import read_numpy_encoder

QUICKSTART = ("The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium.")
PUBLISHED = [1.0, 0.6660, 0.1046]
FP32_TOLERANCE = 5e-4  # the published figures' rounding
INT8_TOLERANCE = 0.02  # measured 0.0017 and 0.0125 off: docs/benchmarks.md


def test_the_packaged_weights_are_the_published_ones():
    digest = hashlib.sha256((model_folder() / "model.safetensors").read_bytes()).hexdigest()
    assert digest == WEIGHTS_SHA256


@pytest.mark.parametrize(
    ("read", "tolerance"),
    [
        pytest.param(read_numpy_encoder, FP32_TOLERANCE, id="numpy-fp32"),
        pytest.param(lambda: read_encoder(model_folder(), "fp32"), FP32_TOLERANCE, id="onnx-fp32"),
        pytest.param(load_encoder, INT8_TOLERANCE, id="onnx-int8"),
    ],
)
def test_the_quickstart_similarities_come_out_as_published(read, tolerance):
    vectors = read().embed(list(QUICKSTART))
    assert vectors.shape == (3, DIMENSIONS)
    similarities = vectors @ vectors[0]
    assert similarities.tolist() == pytest.approx(PUBLISHED, abs=tolerance)


def test_the_risk_check_runs_the_int8_graph():
    assert PRECISION == "int8" and load_encoder().precision == "int8"


def test_a_long_message_is_truncated_at_max_tokens():
    encoder = load_encoder()
    assert len(encoder.token_ids("word " * 500)) == MAX_TOKENS
    assert len(encoder.token_ids("hi")) == 3  # [CLS] hi [SEP], no padding
