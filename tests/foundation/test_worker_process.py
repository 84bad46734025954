"""A Celery worker process loads at its start what its first task would wait for
(attune_collect/worker_process.py, connected in attune_collect/celery.py): litellm, the demo
provider and the learned risk check's model, so the first improved reply pays for none of it.

Checked in fresh processes, sending the signals Celery sends: a prefork child at its start
(``worker_process_init``), a solo or threads worker (``worker_init``, it runs its tasks
itself); a prefork parent (``worker_init``) only hands out messages and loads nothing.
"""

from __future__ import annotations

import json

import pytest

from attune_collect.worker_process import runs_tasks_in_children
from tests.foundation.test_settings_profiles import run

PROBE = """
import json, sys
import django
django.setup()
from celery import signals
from attune_collect.celery import app
{send}
from annotations.text_checks import risk
providers = []
if "litellm" in sys.modules:
    providers = [entry["provider"] for entry in sys.modules["litellm"].custom_provider_map]
print(json.dumps({{
    "litellm_loaded": "litellm" in sys.modules,
    "providers": providers,
    "risk_model_loaded": bool(risk._models),
}}))
"""

PROCESS_INIT = 'signals.worker_process_init.send(sender="w1@host")'
# The sender is the worker (its pool as the command line names it).
WORKER_INIT = 'signals.worker_init.send(sender=type("Worker", (), {{"pool_cls": "{pool}"}})())'


def state_after(send: str, tmp_path) -> dict:
    result = run(PROBE.format(send=send), {}, tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_pool_process_is_warm_when_it_starts(tmp_path):
    state = state_after(PROCESS_INIT, tmp_path)
    assert state["litellm_loaded"]
    assert "attune-demo" in state["providers"]
    assert state["risk_model_loaded"]


def test_a_solo_worker_is_warm_when_it_starts(tmp_path):
    state = state_after(WORKER_INIT.format(pool="solo"), tmp_path)
    assert state["litellm_loaded"] and "attune-demo" in state["providers"]
    assert state["risk_model_loaded"]


def test_a_prefork_parent_loads_nothing(tmp_path):
    state = state_after(WORKER_INIT.format(pool="prefork"), tmp_path)
    assert state == {"litellm_loaded": False, "providers": [], "risk_model_loaded": False}


@pytest.mark.parametrize(
    ("pool", "in_children"), [("prefork", True), ("solo", False), ("threads", False)]
)
def test_which_pools_run_tasks_in_children(pool, in_children):
    assert runs_tasks_in_children(pool) is in_children
