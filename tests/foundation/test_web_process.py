"""The web process's start-up (attune_collect/asgi.py -> web_process.prepare_web_process).

Checked in fresh processes: it imports litellm and reads the risk artefact's header (never the model, which the workers read) before
the first request, freezes what start-up loaded, spaces garbage collections as configured,
shortens the thread switch interval, and refuses a malformed threshold at start.
"""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ImproperlyConfigured

from attune_collect.web_process import (
    DEFAULT_GC_THRESHOLD,
    DEFAULT_GIL_SWITCH_INTERVAL_MS,
    gc_threshold_from_environment,
)
from tests.foundation.test_settings_profiles import run

PROBE = (
    "import gc, json, sys; import attune_collect.asgi; import litellm; "
    "from annotations.text_checks import risk; "
    "print(json.dumps({'threshold': gc.get_threshold(), 'frozen': gc.get_freeze_count(), "
    "'risk_model_loaded': bool(risk._models), "
    "'risk_headers': sorted(h.language for h in risk._headers.values()), "
    "'litellm_loaded': 'litellm' in sys.modules, 'switch': sys.getswitchinterval(), "
    "'streaming_logging_off': litellm.disable_streaming_logging}))"
)


def test_start_up_loads_litellm_freezes_and_spaces_collections(tmp_path):
    result = run(PROBE, {}, tmp_path)
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout.strip().splitlines()[-1])
    assert tuple(state["threshold"]) == DEFAULT_GC_THRESHOLD
    assert state["frozen"] > 100_000  # Django + litellm: hundreds of thousands of objects
    assert state["litellm_loaded"] and state["streaming_logging_off"]
    # Which languages a model reads is known before the first message (every artefact's
    # header); the models themselves (235 MB) are read by the workers only (services/safety.py).
    assert state["risk_headers"] == ["de", "en", "es"] and not state["risk_model_loaded"]
    assert state["switch"] == pytest.approx(DEFAULT_GIL_SWITCH_INTERVAL_MS / 1000)


def test_the_switch_interval_comes_from_the_environment(tmp_path):
    result = run(PROBE, {"ATTUNE_GIL_SWITCH_INTERVAL_MS": "3"}, tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1])["switch"] == pytest.approx(0.003)


def test_a_switch_interval_below_one_millisecond_stops_the_start(tmp_path):
    result = run(PROBE, {"ATTUNE_GIL_SWITCH_INTERVAL_MS": "0"}, tmp_path)
    assert result.returncode != 0
    assert "ATTUNE_GIL_SWITCH_INTERVAL_MS" in result.stderr


def test_the_threshold_comes_from_the_environment(tmp_path):
    result = run(PROBE, {"ATTUNE_GC_THRESHOLD": "30000, 15, 12"}, tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1])["threshold"] == [30000, 15, 12]


def test_a_malformed_threshold_stops_the_start(tmp_path):
    result = run(PROBE, {"ATTUNE_GC_THRESHOLD": "700,10"}, tmp_path)
    assert result.returncode != 0
    assert "ATTUNE_GC_THRESHOLD='700,10': expected three positive whole numbers" in result.stderr


@pytest.mark.parametrize("raw", ["", "  "])
def test_no_value_means_the_default(monkeypatch, raw):
    monkeypatch.setenv("ATTUNE_GC_THRESHOLD", raw)
    assert gc_threshold_from_environment() == DEFAULT_GC_THRESHOLD


@pytest.mark.parametrize("raw", ["0,10,10", "a,b,c", "-5,10,10", "700,10,10,10"])
def test_values_that_are_not_three_positive_numbers_are_refused(monkeypatch, raw):
    monkeypatch.setenv("ATTUNE_GC_THRESHOLD", raw)
    with pytest.raises(ImproperlyConfigured, match="ATTUNE_GC_THRESHOLD"):
        gc_threshold_from_environment()
