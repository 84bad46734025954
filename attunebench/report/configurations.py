"""The configuration of every model and judge of a report (issue 40, item 1): what decides
their answers (model string, sampling parameters, the system prompt they were sent) under one
configuration id, and, apart, the endpoint settings that change nothing in the numbers.

Parameters are printed through an explicit allow-list of sampling parameters
(``SAMPLING_PARAMS``): this branch has no secret filter for parameters, and a report is
published, so any other parameter is withheld and only its name is listed. The configuration
id still covers every parameter (a hash: it shows no value), so two configurations that differ
only in a withheld parameter have different ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from attunebench.canonical import canonical_sha256, text_sha256
from attunebench.prompts import PromptSet

# Printed as they are; everything else is withheld by name (see the module's docstring).
SAMPLING_PARAMS: tuple[str, ...] = ("temperature", "top_p", "max_tokens", "seed")
PARAMS_POLICY = (
    "parameters shown from an allow-list of sampling parameters (temperature, top_p, "
    "max_tokens, seed); any other parameter is withheld and named, its value never printed"
)
# Gateway settings: how fast and how patiently calls are made, never what a model answers.
ENDPOINT_SETTINGS: tuple[str, ...] = (
    "max_concurrency",
    "requests_per_minute",
    "tokens_per_minute",
    "timeout_s",
    "max_retries",
    "force_litellm",
)
ROLES = ("model", "judge")


def api_base_host(api_base: str | None) -> str:
    """Only the host (and port): user info, path and query could carry a token. A value with
    no scheme is read as a host already (the admin's endpoint record keeps only the host; read
    as a URL it would have none, and its reports would name no host)."""
    if not api_base:
        return ""
    parts = urlsplit(api_base if "//" in api_base else f"//{api_base}")
    host = parts.hostname or ""
    return f"{host}:{parts.port}" if parts.port else host


@dataclass(frozen=True)
class ModelConfiguration:
    role: str  # "model" (under test) or "judge"
    alias: str
    model: str  # the litellm model string; the name the engine records answers under
    provider: str
    model_name: str
    api_base_host: str
    configuration_id: str  # sha256 (first 16 hex) of what decides the answers
    params: dict[str, Any]  # the allow-listed sampling parameters
    params_withheld: tuple[str, ...]  # names of the other parameters (values never shown)
    system_prompt_sha256: str  # the system prompt the benchmark sent this model
    system_prompt_version: str  # the prompt set's version id
    endpoint_system_prompt_version: str  # the endpoint's participant-chat prompt (not sent)
    endpoint_system_prompt_sha256: str
    endpoint_settings: dict[str, Any]  # change nothing in the numbers

    def to_dict(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "alias": self.alias,
            "model": self.model,
            "provider": self.provider,
            "model_name": self.model_name,
            "api_base_host": self.api_base_host,
            "configuration_id": self.configuration_id,
            "params": dict(self.params),
            "params_withheld": list(self.params_withheld),
            "system_prompt_sha256": self.system_prompt_sha256,
            "system_prompt_version": self.system_prompt_version,
            "endpoint_system_prompt_version": self.endpoint_system_prompt_version,
            "endpoint_system_prompt_sha256": self.endpoint_system_prompt_sha256,
            "endpoint_settings": dict(self.endpoint_settings),
        }

    def params_text(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in sorted(self.params.items())) or "none set"
        if self.params_withheld:
            shown += f"; withheld: {', '.join(self.params_withheld)}"
        return shown

    def settings_text(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.endpoint_settings.items())


def model_configuration(
    role: str,
    endpoint: Mapping[str, Any],
    *,
    system_prompt_sha256: str,
    system_prompt_version: str,
) -> ModelConfiguration:
    """One model's or judge's configuration from its endpoint record (the keys of
    ``ENDPOINT_SETTINGS`` and alias, provider, model_name, model, api_base, params,
    system_prompt_sha256, system_prompt_version) and the system prompt the benchmark sent it."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    params = dict(endpoint.get("params") or {})
    identity = {
        "model": endpoint["model"],
        "api_base_host": api_base_host(endpoint.get("api_base")),
        "params": params,
        "system_prompt_sha256": system_prompt_sha256,
        "system_prompt_version": system_prompt_version,
    }
    return ModelConfiguration(
        role=role,
        alias=str(endpoint.get("alias", "")),
        model=str(endpoint["model"]),
        provider=str(endpoint.get("provider", "")),
        model_name=str(endpoint.get("model_name", "")),
        api_base_host=identity["api_base_host"],
        configuration_id=canonical_sha256(identity)[:16],
        params={k: params[k] for k in SAMPLING_PARAMS if k in params},
        params_withheld=tuple(sorted(k for k in params if k not in SAMPLING_PARAMS)),
        system_prompt_sha256=system_prompt_sha256,
        system_prompt_version=system_prompt_version,
        endpoint_system_prompt_version=str(endpoint.get("system_prompt_version", "")),
        endpoint_system_prompt_sha256=str(endpoint.get("system_prompt_sha256", "")),
        endpoint_settings={k: endpoint.get(k) for k in ENDPOINT_SETTINGS if k in endpoint},
    )


def benchmark_system_prompt_sha256(prompts: PromptSet) -> dict[str, str]:
    """sha256 of the system prompt the benchmark sends, per role (the runner's own: a model
    under test gets ``system`` with its placeholder, a judge ``judge_system``); the endpoint's
    participant-chat prompt is not sent."""
    model = prompts.render("system", placeholder=prompts.render("placeholder"))
    return {"model": text_sha256(model), "judge": text_sha256(prompts.render("judge_system"))}
