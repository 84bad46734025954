"""What a transport is: the part of a model call that talks to the provider, and nothing else.

The gateway owns the policy (limits, timeouts, retries, accounting, redaction) and hands a
transport one prepared request per attempt. Two transports exist:

- ``DirectTransport`` (``transport_direct.py``): OpenAI's chat-completions protocol over one
  shared HTTP client, for ``openai/...`` models and OpenAI-compatible servers (vLLM, Ollama's
  /v1, LM Studio...);
- ``LiteLLMTransport`` (``transport_litellm.py``): every other provider, the demo provider,
  and any endpoint whose configuration forces litellm.

``uses_litellm`` decides which one an endpoint gets.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .types import EndpointConfig, ErrorKind

DEMO_MODEL_PREFIX = "attune-demo/"

# Providers litellm reaches through OpenAI's own protocol at the endpoint's api_base ("" is a
# model string without a provider, which litellm treats as OpenAI's). Other providers with an
# api_base (azure, anthropic, ollama's native API...) speak their own protocol there.
OPENAI_PROTOCOL_PROVIDERS = frozenset(
    {"", "openai", "custom_openai", "hosted_vllm", "lm_studio", "llamafile"}
)


def provider_of(model: str) -> str:
    provider, _, name = model.partition("/")
    return provider if name else ""


def wire_model(model: str) -> str:
    """The model name sent to the server: the litellm string without its provider."""
    provider, _, name = model.partition("/")
    return name if name else provider


def uses_litellm(endpoint: EndpointConfig) -> bool:
    """True unless the endpoint speaks OpenAI's protocol and does not force litellm."""
    if endpoint.force_litellm or endpoint.model.startswith(DEMO_MODEL_PREFIX):
        return True
    provider = provider_of(endpoint.model)
    if provider == "openai":
        return False
    return not (endpoint.api_base and provider in OPENAI_PROTOCOL_PROVIDERS)


@dataclass(frozen=True)
class CallRequest:
    """One attempt's request, prepared by the gateway (the same for every attempt)."""

    endpoint: EndpointConfig
    messages: list[dict[str, Any]]
    params: Mapping[str, Any]  # sampling parameters: the endpoint's, then the call's
    timeout_s: float
    api_key: str | None  # already registered for redaction
    stream: bool


@dataclass(frozen=True, slots=True)
class Reply:
    """A whole answer (non-streamed call)."""

    text: str
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int
    model: str | None  # as the server reported it


@dataclass(frozen=True, slots=True)
class Piece:
    """One streamed chunk: text (may be empty), and what the chunk reported besides."""

    text: str
    finish_reason: str | None = None
    prompt_tokens: int | None = None  # only the usage chunk carries these
    completion_tokens: int | None = None
    model: str | None = None


class TransportFailure(Exception):
    """A failed attempt, already classified (what the direct transport raises)."""

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        status_code: int | None = None,
        response_headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.kind: ErrorKind = kind
        self.status_code = status_code
        self.response_headers = response_headers


class Transport(Protocol):
    name: str

    def ready(self) -> None:
        """One-off set-up (an import, a TLS context), done before an attempt's timeout starts."""
        ...

    async def complete(self, request: CallRequest) -> Reply: ...

    def stream(self, request: CallRequest) -> AsyncIterator[Piece]:
        """Pieces as they arrive; closing the iterator releases the connection."""
        ...
