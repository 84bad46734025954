"""``run_config.json`` in a runs folder: how ``attunebench run`` called each model (model
string, API base, the name of the key's variable, request parameters; never a key), so a
leaderboard entry keeps the configuration its scores came from and ``attunebench report``
states it. An entry may also carry an ``alias``: the name another tool knew the model by (the
admin's endpoint alias, for outputs exported from an admin run); the report then names the
model by it, as that tool's report does."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from attune_collect.llm import EndpointConfig
from attunebench.files import write_atomically

RUN_CONFIG_FILE = "run_config.json"


def endpoint_configuration(spec: EndpointConfig, alias: str | None = None) -> dict[str, Any]:
    found = {
        "model": spec.model,
        "api_base": spec.api_base,
        "api_key_env": spec.api_key_env,  # the variable's name; the key stays in it
        "params": dict(spec.params),
    }
    return found | ({"alias": alias} if alias else {})


def write_run_config(
    out: Path,
    models: Sequence[EndpointConfig],
    judges: Sequence[EndpointConfig],
    modes: Sequence[str],
    panas_strategy: str,
    prompt_set: str,
    aliases: Mapping[str, str] | None = None,
) -> Path:
    """``aliases``: model string -> the name another tool knew it by (none from ``run``)."""
    named = aliases or {}
    data = {
        "models": {m.model: endpoint_configuration(m, named.get(m.model)) for m in models},
        "judges": {j.model: endpoint_configuration(j, named.get(j.model)) for j in judges},
        "modes": list(modes),
        "panas_strategy": panas_strategy,
        "prompt_set": prompt_set,
    }
    path = out / RUN_CONFIG_FILE
    write_atomically(path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    return path


def read_run_config(path: Path) -> dict[str, Any]:
    """The recorded configuration, or {} (outputs of another tool have none)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
