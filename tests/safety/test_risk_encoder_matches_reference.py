"""The encoder the risk check runs (ONNX Runtime, int8) gives, message by message, nearly the
vector of the numpy fp32 reference forward pass, over training corpus messages short and long
(the bounds are below the minimum measured over the whole corpus: docs/benchmarks.md); it loads
once per process, and threads embedding at the same moment get the numbers one thread gets."""

from __future__ import annotations

import threading

import numpy as np

from annotations.text_checks import risk_encoder
from annotations.text_checks.risk_corpus import read_examples, training_files
from annotations.text_checks.risk_encoder_numpy import read_numpy_encoder

MIN_COSINE = 0.96  # the whole corpus: 0.968 at worst, 0.991 on average
MIN_MEAN_COSINE = 0.99
SAMPLE = 97  # every 97th corpus message (about 20): the whole corpus is the benchmark's


def corpus_sample() -> list[str]:
    texts = [e.text for e in read_examples(training_files())]
    return texts[::SAMPLE] + [" ".join(texts[:12])]  # and one past the truncation


def test_each_message_embeds_as_the_reference_does():
    texts = corpus_sample()
    vectors = risk_encoder.load_encoder().embed(texts)
    reference = read_numpy_encoder().embed(texts)
    cosines = (vectors * reference).sum(axis=1)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert cosines.min() >= MIN_COSINE, [
        t for t, c in zip(texts, cosines, strict=True) if c < MIN_COSINE
    ]
    assert cosines.mean() >= MIN_MEAN_COSINE


def test_concurrent_first_uses_load_the_encoder_once(monkeypatch):
    monkeypatch.setattr(risk_encoder, "_shared", None)
    barrier = threading.Barrier(4)
    encoders: list[risk_encoder.Encoder] = []

    def first_use() -> None:
        barrier.wait()
        encoders.append(risk_encoder.load_encoder())

    threads = [threading.Thread(target=first_use) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(encoders) == 4 and all(encoder is encoders[0] for encoder in encoders)


def test_threads_embedding_at_once_get_what_one_thread_gets():
    encoder = risk_encoder.load_encoder()
    texts = corpus_sample()
    alone = encoder.embed(texts)
    barrier = threading.Barrier(4)
    results: list[np.ndarray] = []

    def embed() -> None:
        barrier.wait()
        results.append(encoder.embed(texts))

    threads = [threading.Thread(target=embed) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 4
    assert all(np.array_equal(result, alone) for result in results)
