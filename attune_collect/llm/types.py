"""The gateway's vocabulary: endpoint configuration, results, stream events and the one error."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

ErrorKind = Literal[
    "rate_limited",
    "upstream_error",
    "timeout",
    "connection",
    "auth",
    "bad_request",
    "stream_interrupted",
    "config",
]

# Kinds worth another attempt: the same request may well succeed a moment later.
RETRYABLE_KINDS: frozenset[ErrorKind] = frozenset(
    {"rate_limited", "upstream_error", "timeout", "connection"}
)


# The gateway's defaults, in one place: the registry's columns (annotations/models/endpoint.py)
# and the engine's command line (attunebench/cli.py) take theirs from here.
DEFAULT_MAX_CONCURRENCY = 8
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 3


@dataclass(frozen=True)
class EndpointConfig:
    """One model endpoint, for the gateway and the evaluation engine alike. Secrets are never
    stored here: `api_key_env` names the variable."""

    model: str  # a litellm model string, e.g. "openai/gpt-4o-mini" or "attune-demo/listener"
    # What the gateway's limits and ledger are kept by; the model string when not given, so
    # the engine's evaluated model and a judge on the same model share one provider quota.
    name: str = ""
    api_base: str | None = None
    api_key_env: str | None = None
    # Extra litellm parameters (temperature, max_tokens...); left out of the hash (a mapping).
    # The engine's call cache keys on them: they change the answer.
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    max_concurrency: int = DEFAULT_MAX_CONCURRENCY
    requests_per_minute: int | None = None
    # Prompt + completion tokens per minute. The gateway does not count them ahead of a call;
    # the engine's call pool does (estimated before a call, settled after), per model string.
    tokens_per_minute: int | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_retries: int = DEFAULT_MAX_RETRIES
    # Call through litellm even when the endpoint speaks OpenAI's protocol (which the gateway
    # otherwise calls directly, see transport.uses_litellm).
    force_litellm: bool = False

    def __post_init__(self) -> None:
        if not self.model.strip():
            raise ValueError("an endpoint needs a model")
        if not self.name:
            object.__setattr__(self, "name", self.model)
        if self.max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        if self.requests_per_minute is not None and self.requests_per_minute <= 0:
            raise ValueError("requests_per_minute must be positive (or None for no limit)")
        if self.tokens_per_minute is not None and self.tokens_per_minute <= 0:
            raise ValueError("tokens_per_minute must be positive (or None for no limit)")
        if self.timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        if self.max_retries < 0:
            raise ValueError("max_retries cannot be negative")
        # A read-only copy, so a frozen config cannot change behind the gateway's back.
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


@dataclass(frozen=True)
class Completion:
    """A finished model answer with its accounting."""

    text: str
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    latency_ms: float
    model: str
    attempts: int
    # Streaming only: how long the first token took (what a participant perceives).
    time_to_first_token_ms: float | None = None


@dataclass(frozen=True)
class TokenDelta:
    """A piece of streamed text, in arrival order."""

    text: str


@dataclass(frozen=True)
class StreamDone:
    """The last stream event: the whole answer and its accounting."""

    completion: Completion


@dataclass(frozen=True)
class Queued:
    """The call waits for its endpoint: every slot is taken (``max_concurrency``) or the
    requests-per-minute limit makes it wait. Sent once, before the wait, so the caller can say
    so at once rather than show silence; nothing is sent when the call starts at once."""


StreamEvent = TokenDelta | Queued | StreamDone


class GatewayError(Exception):
    """Every failure the gateway reports. The message is safe to show: it never holds a key."""

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        retryable: bool | None = None,
        retry_after: float | None = None,
        attempts: int = 1,
        status_code: int | None = None,
        partial_text: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind: ErrorKind = kind
        self.message = message
        self.retryable = kind in RETRYABLE_KINDS if retryable is None else retryable
        self.retry_after = retry_after
        self.attempts = attempts
        self.status_code = status_code
        # stream_interrupted only: the text that reached the caller before the break.
        self.partial_text = partial_text

    def __str__(self) -> str:
        return f"[{self.kind}] {self.message} (attempts: {self.attempts})"

    def __repr__(self) -> str:
        return (
            f"GatewayError(kind={self.kind!r}, attempts={self.attempts}, message={self.message!r})"
        )
