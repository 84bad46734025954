"""A model the engine calls (under test or as a judge), and how hard it may be called."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from attune_collect.llm import EndpointConfig


@dataclass(frozen=True)
class ModelSpec:
    """``model`` is a litellm model string; it is also the ``em_model`` written in run outputs.

    ``params`` are request parameters that change the answer (temperature, max_tokens, seed...):
    they are part of the call-cache key. Limits hold per model string within one process:
    ``max_concurrency`` calls in flight, ``requests_per_minute`` (the gateway's pacing) and
    ``tokens_per_minute`` (prompt + completion tokens, estimated before and settled after).
    The API key is never held here: ``api_key_env`` names the environment variable.
    """

    model: str
    api_base: str | None = None
    api_key_env: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    max_concurrency: int = 8
    requests_per_minute: int | None = None
    tokens_per_minute: int | None = None
    timeout_s: float = 120.0
    max_retries: int = 3
    force_litellm: bool = False  # call through litellm even if the endpoint speaks OpenAI's

    def __post_init__(self) -> None:
        if not self.model.strip():
            raise ValueError("a model spec needs a model string")
        if self.tokens_per_minute is not None and self.tokens_per_minute <= 0:
            raise ValueError("tokens_per_minute must be positive (or None for no limit)")
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def __reduce__(self) -> tuple[object, ...]:
        # A mappingproxy cannot be pickled, and Celery workers receive specs.
        values = {name: getattr(self, name) for name in self.__dataclass_fields__}
        values["params"] = dict(self.params)
        return (_spec_from_fields, (values,))

    def endpoint(self) -> EndpointConfig:
        """The gateway endpoint. Its name is the model string, so an evaluated model and a
        judge on the same model share one set of limits, as they share one provider quota."""
        return EndpointConfig(
            name=self.model,
            model=self.model,
            api_base=self.api_base,
            api_key_env=self.api_key_env,
            params=dict(self.params),
            max_concurrency=self.max_concurrency,
            requests_per_minute=self.requests_per_minute,
            timeout_s=self.timeout_s,
            max_retries=self.max_retries,
            force_litellm=self.force_litellm,
        )


def _spec_from_fields(values: dict[str, Any]) -> ModelSpec:
    return ModelSpec(**values)
