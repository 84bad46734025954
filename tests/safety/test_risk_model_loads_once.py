"""The risk model loads once per process: threads asking for it at the same moment get one
model, and the embedding is loaded once."""

from __future__ import annotations

import threading

from annotations.text_checks import risk, risk_embedding


def test_concurrent_first_uses_load_the_model_once(tiny_artefact, use_risk_artefact, monkeypatch):
    path = use_risk_artefact(tiny_artefact)
    loads: list[int] = []
    real_load = risk_embedding.load_embedder

    def counted_load() -> risk_embedding.Embedder:
        loads.append(1)
        return real_load()

    monkeypatch.setattr(risk, "load_embedder", counted_load)
    monkeypatch.setattr(risk, "_models", {})
    barrier = threading.Barrier(4)
    models: list[risk.RiskModel] = []

    def first_use() -> None:
        barrier.wait()
        models.append(risk.load_model(path))

    threads = [threading.Thread(target=first_use) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(models) == 4 and all(model is models[0] for model in models)
    assert loads == [1]
