"""The model configurations of a release: the ``model_configs`` rows and how much each was used.

Pure (no Django). The platform hands the writer one ``ConfigSnapshot`` per configuration its
conversations ran under (the stored snapshot's definition, see
annotations/services/model_configs.py) and whether its prompt may be published; the writer
counts the conversations of each as it writes them, so the card's counts and the table agree
with the ``conversations`` table by construction. ``read_configurations`` reads both back from
a release folder for the release diff.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from attune_collect.llm.secrets_policy import redact_params
from attunebench.canonical import canonical_json

TABLE = "model_configs"


@dataclass(frozen=True)
class ConfigSnapshot:
    """One configuration as the platform stored it, and whether its prompt may be released."""

    config_id: str  # the snapshot's content hash
    definition: dict[str, Any]
    system_prompt_sha256: str
    publish_prompt: bool


@dataclass
class ConfigUsage:
    """How many released conversations ran under a configuration, and over which days."""

    conversations: int = 0
    first: str = ""  # ISO date of the earliest conversation ("" when none has a timestamp)
    last: str = ""

    def add(self, timestamp: str | None) -> None:
        self.conversations += 1
        day = (timestamp or "")[:10]
        if day:
            self.first = min(self.first, day) if self.first else day
            self.last = max(self.last, day)


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _params_json(value: Any) -> str | None:
    """Parameters as JSON, every credential-like entry redacted: the registry refuses them,
    but a snapshot written before it did (or straight to the database) may hold one."""
    return None if value is None else canonical_json(redact_params(value))


def config_row(snapshot: ConfigSnapshot) -> dict[str, Any]:
    """The ``model_configs`` row of a snapshot. The prompt text only when it may be published;
    never a key (a snapshot holds none: the API base is already reduced to its host, and
    parameters pass the credential filter, secrets_policy.redact_params)."""
    definition = snapshot.definition
    endpoint = definition.get("endpoint") or {}
    improver = definition.get("improver") or {}
    instrument = definition.get("instrument") or {}
    return {
        "model_config_id": snapshot.config_id,
        "model": endpoint.get("model"),
        "api_base_host": endpoint.get("api_base_host") or None,
        "params": _params_json(endpoint.get("params", {})),
        "system_prompt_version": endpoint.get("system_prompt_version") or None,
        "system_prompt_sha256": snapshot.system_prompt_sha256,
        "system_prompt": endpoint.get("system_prompt") if snapshot.publish_prompt else None,
        "improver_model": improver.get("model"),
        "improver_api_base_host": improver.get("api_base_host") or None,
        "improver_params": _params_json(improver.get("params")) if improver else None,
        "instrument_name": instrument.get("name"),
        "instrument_version": _text(instrument.get("version")),  # an integer in the platform
        "instrument_sha256": instrument.get("content_hash"),
        "consent_version": definition.get("consent_version"),
        "app_build": definition.get("app_build") or None,
    }


@dataclass(frozen=True)
class ReleasedConfigurations:
    """What a release folder says about configurations: its rows, and each conversation's id."""

    rows: dict[str, dict[str, Any]]  # model_config_id -> row
    of_conversation: dict[str, str | None]  # conversation_id -> model_config_id


def read_configurations(folder: Path) -> ReleasedConfigurations | None:
    """The configurations of a release folder; None for a release built before releases
    carried them (no ``model_configs`` table), so a diff can say it could not compare."""
    tables = folder / "tables"
    configs = tables / f"{TABLE}.parquet"
    conversations = tables / "conversations.parquet"
    if not configs.is_file() or "model_config_id" not in pq.read_schema(conversations).names:
        return None
    rows = {row["model_config_id"]: row for row in pq.read_table(configs).to_pylist()}
    assigned = pq.read_table(conversations, columns=["conversation_id", "model_config_id"])
    of_conversation = dict(
        zip(
            assigned.column("conversation_id").to_pylist(),
            assigned.column("model_config_id").to_pylist(),
            strict=True,
        )
    )
    return ReleasedConfigurations(rows, of_conversation)
