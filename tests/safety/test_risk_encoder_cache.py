"""The int8 graph is quantized once per machine and read back from the cache folder: processes
(here threads) loading at the same moment build it once; its file name changes with what its
bytes depend on, and a file built for other code or versions is removed. The quantizer itself is
replaced by the fp32 graph's bytes here (seconds of CPU saved; the offline test runs it)."""

from __future__ import annotations

import threading

import numpy as np

from annotations.text_checks import risk_encoder


def test_the_int8_graph_is_built_once_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTUNE_DATA_DIR", str(tmp_path))
    builds: list[bool] = []

    def quantized(model, per_channel: bool) -> bytes:
        builds.append(per_channel)
        return model.SerializeToString()

    monkeypatch.setattr(risk_encoder, "quantized", quantized)
    folder = risk_encoder.model_folder()
    cache = risk_encoder.cache_folder()
    assert cache == tmp_path / "model-cache"
    cache.mkdir()
    stale = cache / "minilm-int8.0000000000000000.onnx"
    stale.write_bytes(b"built by other code")
    other = cache / "minilm-int8-per-tensor.0000000000000000.onnx"
    other.write_bytes(b"another precision: kept")
    barrier = threading.Barrier(3)
    models: list[bytes] = []

    def load() -> None:
        barrier.wait()
        models.append(risk_encoder.quantized_model(folder, "int8"))

    threads = [threading.Thread(target=load) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert builds == [True]  # per channel, once
    assert len(models) == 3 and models[0] == models[1] == models[2]
    assert sorted(p.name for p in cache.glob("*.onnx")) == sorted(
        [risk_encoder._cache_file(folder, "int8").name, other.name]
    )
    assert not stale.exists()

    first = risk_encoder.read_encoder(folder).embed(["i'm so tired of existing"])
    again = risk_encoder.read_encoder(folder).embed(["i'm so tired of existing"])
    assert builds == [True]  # read back, not built again
    assert np.array_equal(first, again)


def test_the_cache_file_is_named_by_precision_and_code(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTUNE_DATA_DIR", str(tmp_path))
    folder = risk_encoder.model_folder()
    per_channel = risk_encoder._cache_file(folder, "int8")
    per_tensor = risk_encoder._cache_file(folder, "int8-per-tensor")
    assert per_channel.parent == per_tensor.parent == tmp_path / "model-cache"
    assert per_channel.name.startswith("minilm-int8.") and per_channel != per_tensor
    monkeypatch.setattr(risk_encoder.metadata, "version", lambda name: "0.0.0")
    assert risk_encoder._cache_file(folder, "int8") != per_channel  # another onnxruntime
