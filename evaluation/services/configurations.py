"""The configurations of a run's models and judges, recorded when the run is created and read
back for its report (``attunebench.report.configurations`` turns them into what the
report shows: parameters through the allow-list, endpoint settings apart)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from annotations.models import ModelEndpoint
from attunebench.canonical import text_sha256
from attunebench.prompts import load_prompt_set
from attunebench.report.configurations import (
    ENDPOINT_SETTINGS,
    ModelConfiguration,
    api_base_host,
    benchmark_system_prompt_sha256,
    model_configuration,
)
from evaluation.models import EvaluationRun


def endpoint_record(endpoint: ModelEndpoint) -> dict[str, Any]:
    """What an endpoint was at this moment; the API base as its host only (a path or query
    could carry a token), the key never (nor its variable's name)."""
    config = endpoint.gateway_config()
    return {
        "alias": endpoint.alias,
        "provider": endpoint.provider,
        "model_name": endpoint.model_name,
        "model": endpoint.litellm_model,
        "api_base": api_base_host(endpoint.api_base),
        "params": dict(endpoint.params or {}),
        "system_prompt_version": endpoint.system_prompt_version,
        "system_prompt_sha256": text_sha256(endpoint.system_prompt),
        **{name: getattr(config, name) for name in ENDPOINT_SETTINGS},
    }


def configurations_record(
    models: Iterable[ModelEndpoint], judges: Iterable[ModelEndpoint]
) -> dict[str, list[dict[str, Any]]]:
    return {
        "models": [endpoint_record(e) for e in models],
        "judges": [endpoint_record(e) for e in judges],
    }


def run_configurations(run: EvaluationRun) -> tuple[ModelConfiguration, ...]:
    """Every model's then every judge's configuration, by alias. From the record made when the
    run was created; a run created before the record existed reads its endpoints as they are
    now."""
    stored = run.configurations or configurations_record(
        run.models_under_test.all(), run.judges.all()
    )
    prompts = benchmark_system_prompt_sha256(load_prompt_set(run.prompt_set))
    found = []
    for role, key in (("model", "models"), ("judge", "judges")):
        for record in sorted(stored.get(key, []), key=lambda r: str(r.get("alias", ""))):
            found.append(
                model_configuration(
                    role,
                    record,
                    system_prompt_sha256=prompts[role],
                    system_prompt_version=run.prompt_version,
                )
            )
    return tuple(found)
