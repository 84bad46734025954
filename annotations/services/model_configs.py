"""Configuration snapshots: what a conversation runs under, recorded when it opens.

``snapshot_for(study, endpoint)`` builds the configuration as plain JSON (model string, API
base *host*, sampling parameters, system prompt, the improver's model and parameters,
instrument, consent version, the participant app's build) and returns the one immutable row
with that content, creating it the first time. The chat then uses the snapshot's prompt,
model and parameters, so the record is what the participant really talked to even if the
endpoint is edited while the conversation runs.

Never in a snapshot: the key (nor the name of its variable), anything of the API base beyond
its host (a path or query could carry a token), and a credential in the parameters (redacted,
for an endpoint row written before the registry refused them; the gateway refuses to call
with such parameters anyway).
"""

from __future__ import annotations

import dataclasses
from typing import Any
from urllib.parse import urlsplit

from django.db import IntegrityError, transaction

from annotations.models import Conversation, ModelConfig, ModelEndpoint, Study
from annotations.participant_web.bundle import app_build_id
from attune_collect.llm import EndpointConfig
from attune_collect.llm.secrets_policy import redact_params
from attunebench.canonical import canonical_sha256, text_sha256

SNAPSHOT_SCHEMA = "attune-model-config-1"


def api_base_host(api_base: str) -> str:
    """Only the host (and port) of an API base: user info, path and query are left out."""
    if not api_base:
        return ""
    parts = urlsplit(api_base)
    host = parts.hostname or ""
    return f"{host}:{parts.port}" if parts.port else host


def _endpoint_part(endpoint: ModelEndpoint, *, with_prompt: bool) -> dict[str, Any]:
    part: dict[str, Any] = {
        "alias": endpoint.alias,
        "provider": endpoint.provider,
        "model_name": endpoint.model_name,
        "model": endpoint.litellm_model,
        "api_base_host": api_base_host(endpoint.api_base),
        "params": redact_params(dict(endpoint.params or {})),
    }
    if with_prompt:
        part["system_prompt"] = endpoint.system_prompt
        part["system_prompt_version"] = endpoint.system_prompt_version
    return part


def configuration_of(study: Study, endpoint: ModelEndpoint) -> dict[str, Any]:
    """The configuration a new conversation of ``study`` with ``endpoint`` would run under."""
    improver = study.improver_endpoint
    instrument = study.instrument
    return {
        "schema": SNAPSHOT_SCHEMA,
        "endpoint": _endpoint_part(endpoint, with_prompt=True),
        "improver": _endpoint_part(improver, with_prompt=False) if improver else None,
        "instrument": {
            "name": instrument.name,
            "version": instrument.version,
            "content_hash": instrument.content_hash,
        },
        "consent_version": study.consent_version,
        "app_build": app_build_id(),
    }


def snapshot(definition: dict[str, Any]) -> ModelConfig:
    """The row holding exactly ``definition``, created if new (safe under concurrent calls)."""
    config_hash = canonical_sha256(definition)
    found = ModelConfig.objects.filter(config_hash=config_hash).first()
    if found is not None:
        return found
    prompt = definition.get("endpoint", {}).get("system_prompt", "")
    try:
        with transaction.atomic():  # a savepoint: a concurrent insert must not break the caller
            return ModelConfig.objects.create(
                config_hash=config_hash,
                definition=definition,
                system_prompt_sha256=text_sha256(prompt),
            )
    except IntegrityError:
        return ModelConfig.objects.get(config_hash=config_hash)


def snapshot_for(study: Study, endpoint: ModelEndpoint) -> ModelConfig:
    return snapshot(configuration_of(study, endpoint))


def system_prompt_of(conversation: Conversation) -> str:
    """The system prompt this conversation runs under: its snapshot's, else the endpoint's."""
    recorded = _recorded_part(conversation, "endpoint")
    return recorded["system_prompt"] if recorded else _endpoint_of(conversation).system_prompt


def _endpoint_of(conversation: Conversation) -> ModelEndpoint:
    # Every conversation a participant chats in has one (imported conversations may not).
    if conversation.model_endpoint is None:
        raise ValueError(f"conversation {conversation.pk} has no model endpoint")
    return conversation.model_endpoint


def _recorded_part(conversation: Conversation, part: str) -> dict[str, Any] | None:
    if conversation.model_config_id is None or conversation.model_config is None:
        return None
    recorded: dict[str, Any] | None = conversation.model_config.definition.get(part)
    return recorded


def _as_recorded(live: EndpointConfig, recorded: dict[str, Any] | None) -> EndpointConfig:
    """The live transport and limits (base URL, key variable, timeouts) with the recorded
    model and parameters: those decide what the model says, so they come from the snapshot."""
    if not recorded:
        return live
    return dataclasses.replace(live, model=recorded["model"], params=recorded["params"])


def gateway_config_of(conversation: Conversation) -> EndpointConfig:
    """The configuration the chat calls for this conversation's replies."""
    return _as_recorded(
        _endpoint_of(conversation).gateway_config(), _recorded_part(conversation, "endpoint")
    )


def improver_config_of(conversation: Conversation, improver: ModelEndpoint) -> EndpointConfig:
    """The improver's configuration: the snapshot's model and parameters when it names this
    improver (the study may have changed its improver since the conversation opened)."""
    recorded = _recorded_part(conversation, "improver")
    if recorded and recorded.get("alias") != improver.alias:
        recorded = None
    return _as_recorded(improver.gateway_config(), recorded)
