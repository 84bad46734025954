"""The one way the platform calls a model: participant chat, improved replies, evaluated models
and judges all go through `LLMGateway`.

It owns the policy, the same whichever transport makes the call (``transport.py``): per-call
timeouts, retries with backoff and jitter that honour Retry-After, a concurrency limit and a
requests-per-minute limit per endpoint, error classes, and token and cost accounting (prices
from litellm's cost map, once per model). API keys are read from the environment at call time
and scrubbed from every error message and log line. OpenAI-compatible endpoints are called
directly over HTTP; every other provider through litellm, imported only when one is called.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import threading
import time
from collections.abc import AsyncGenerator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import SECRETS, classify, install_log_redaction
from .idle_timeout import IdleTimeout
from .ledger import UsageLedger
from .limits import Clock, ConcurrencyLimits, RateLimiterFactory, RateLimiterRegistry, Sleep
from .moderation import ModerationVerdict, moderation_messages, read_verdict
from .personal_details import QuotedDetail, personal_details_messages, read_details
from .prices import PriceBook, default_price_book
from .retry import RetryPolicy
from .secrets_policy import key_env_problem, params_problem
from .transport import DEMO_MODEL_PREFIX, CallRequest, Piece, Transport, uses_litellm
from .transport_direct import DirectTransport
from .transport_litellm import LiteLLMTransport
from .types import (
    Completion,
    EndpointConfig,
    GatewayError,
    Queued,
    StreamDone,
    StreamEvent,
    TokenDelta,
)

logger = logging.getLogger("attune_collect.llm")

# Parameters the gateway sets itself; a caller passing them would silently defeat its policy.
_GATEWAY_OWNED_PARAMS = frozenset(
    {"model", "messages", "stream", "api_key", "api_base", "num_retries", "max_retries"}
)

Messages = Sequence[Mapping[str, Any]]


@dataclass
class _StreamProgress:
    """What one streaming attempt has received so far."""

    parts: list[str] = field(default_factory=list)
    finish_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reported_model: str | None = None
    first_token_at: float | None = None

    @property
    def tokens_sent(self) -> bool:
        return bool(self.parts)

    def absorb(self, piece: Piece) -> None:
        """Record one streamed piece."""
        if piece.model:
            self.reported_model = piece.model
        if piece.prompt_tokens is not None:
            self.prompt_tokens = piece.prompt_tokens
        if piece.completion_tokens is not None:
            self.completion_tokens = piece.completion_tokens
        if piece.finish_reason:
            self.finish_reason = piece.finish_reason
        if piece.text:
            self.parts.append(piece.text)


class LLMGateway:
    """Async model calls with the platform's reliability and accounting policy.

    One instance per process is the intended use (see `default_gateway()`): the limits and the
    ledger are only meaningful when every call for an endpoint goes through the same gateway.
    `sleep` and `clock` are injectable so tests can check backoff and pacing without waiting.
    `rate_limiter_factory` replaces the in-process requests-per-minute limiters, e.g. with
    limiters shared by every worker through Redis (evaluation runs). `prices` is the cost map
    (the process's by default).
    """

    def __init__(
        self,
        *,
        retry_policy: RetryPolicy | None = None,
        sleep: Sleep | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        ledger: UsageLedger | None = None,
        rate_limiter_factory: RateLimiterFactory | None = None,
        prices: PriceBook | None = None,
    ) -> None:
        self.retry_policy = retry_policy or RetryPolicy()
        self.ledger = ledger or UsageLedger()
        self._sleep: Sleep = sleep or asyncio.sleep
        self._clock: Clock = clock or time.monotonic
        self._rng = rng or random.Random()
        self._concurrency = ConcurrencyLimits()
        self._rate_limiters = RateLimiterRegistry(
            clock=self._clock, sleep=self._sleep, factory=rate_limiter_factory
        )
        self.prices = prices or default_price_book()
        self._direct = DirectTransport()
        self._litellm = LiteLLMTransport()
        install_log_redaction()

    def transport_for(self, endpoint: EndpointConfig) -> Transport:
        """The direct transport for OpenAI-compatible endpoints, else litellm."""
        return self._litellm if uses_litellm(endpoint) else self._direct

    def needs_litellm(self, endpoint: EndpointConfig) -> bool:
        """Whether calling the endpoint imports litellm (callers may import it off the loop)."""
        return self.transport_for(endpoint) is self._litellm

    # -- public API ------------------------------------------------------------------------

    async def complete(
        self, endpoint: EndpointConfig, messages: Messages, **params: Any
    ) -> Completion:
        """One chat completion, retried per the policy. Raises GatewayError."""
        request = self._prepare_or_record(endpoint, messages, params, stream=False)
        attempt = 0
        while True:
            attempt += 1
            try:
                completion = await self._complete_once(endpoint, request, attempt)
            except Exception as exc:  # CancelledError is not an Exception: it propagates
                error = classify(exc, context=_context(endpoint), attempts=attempt)
            else:
                self.ledger.record_success(
                    endpoint.name,
                    attempts=attempt,
                    prompt_tokens=completion.prompt_tokens,
                    completion_tokens=completion.completion_tokens,
                    cost_usd=completion.cost_usd,
                )
                return completion
            # Raised outside the except block on purpose: the original exception must not
            # ride along as __context__, its text may hold the key.
            await self._wait_or_raise(endpoint, error, attempt)

    async def stream(
        self,
        endpoint: EndpointConfig,
        messages: Messages,
        *,
        queue_key: object = None,
        **params: Any,
    ) -> AsyncGenerator[StreamEvent]:
        """TokenDelta events as text arrives, then one StreamDone. Raises GatewayError.

        When the call must wait for the endpoint (its slots are taken, or its per-minute
        limit), a ``Queued`` event comes first, before the wait. Waiters for a slot are served
        round-robin by ``queue_key`` (``limits.FairSlots``): one key's backlog cannot starve
        another's.

        A failure before the first token is retried like `complete`; once text has reached
        the caller, a break is final: GatewayError(kind="stream_interrupted") carrying the
        partial text, because the caller has already shown it.
        """
        request = self._prepare_or_record(endpoint, messages, params, stream=True)
        attempt = 0
        recorded = False  # whether the ledger already holds this call's outcome
        try:
            while True:
                attempt += 1
                progress = _StreamProgress()
                attempt_events = self._stream_once(endpoint, request, attempt, progress, queue_key)
                error: GatewayError | None = None
                try:
                    while True:
                        try:
                            event = await anext(attempt_events)
                        except StopAsyncIteration:
                            break
                        except Exception as exc:
                            error = classify(exc, context=_context(endpoint), attempts=attempt)
                            break
                        recorded = recorded or isinstance(event, StreamDone)
                        yield event  # outside the try: an error thrown in by the caller is not ours
                finally:
                    await attempt_events.aclose()
                if error is None:
                    return
                if progress.tokens_sent:
                    recorded = True
                    raise self._record_failure(
                        endpoint, _interrupted(endpoint, error, progress, attempt), attempt
                    )
                try:
                    await self._wait_or_raise(endpoint, error, attempt)
                except GatewayError:
                    recorded = True
                    raise
        finally:
            if not recorded:  # the caller stopped reading, or was cancelled
                self.ledger.record_abandoned(endpoint.name, attempts=attempt)

    async def moderate(self, endpoint: EndpointConfig, text: str) -> ModerationVerdict:
        """A moderation verdict on one message (``moderation.py``): a classifier prompt
        answered by the endpoint's model, under the same policy as every other call. Raises
        GatewayError, or ``moderation.VerdictUnreadable`` when the answer is not a verdict."""
        completion = await self.complete(endpoint, moderation_messages(text))
        return read_verdict(completion)

    async def find_personal_details(
        self, endpoint: EndpointConfig, text: str
    ) -> list[QuotedDetail]:
        """The personal details the endpoint's model quotes from one text
        (``personal_details.py``). Raises GatewayError, or ``personal_details.DetailsUnreadable``
        when the answer is not the asked JSON."""
        completion = await self.complete(endpoint, personal_details_messages(text))
        return read_details(completion)

    # -- one attempt -----------------------------------------------------------------------

    async def _complete_once(
        self, endpoint: EndpointConfig, request: CallRequest, attempt: int
    ) -> Completion:
        transport = self.transport_for(endpoint)
        transport.ready()
        async with self._concurrency.slots(endpoint.name, endpoint.max_concurrency).held():
            await self._wait_for_rate_slot(endpoint)
            started = self._clock()
            # The transport also passes the timeout to its HTTP client; this one covers
            # everything else (custom providers, litellm's work before the request).
            async with asyncio.timeout(request.timeout_s):
                reply = await transport.complete(request)
            latency_ms = (self._clock() - started) * 1000.0
        return Completion(
            text=reply.text,
            finish_reason=reply.finish_reason,
            prompt_tokens=reply.prompt_tokens,
            completion_tokens=reply.completion_tokens,
            cost_usd=self._cost(endpoint, reply.prompt_tokens, reply.completion_tokens),
            latency_ms=latency_ms,
            model=_served_model(reply.model, endpoint.model),
            attempts=attempt,
        )

    async def _stream_once(
        self,
        endpoint: EndpointConfig,
        request: CallRequest,
        attempt: int,
        progress: _StreamProgress,
        queue_key: object,
    ) -> AsyncGenerator[StreamEvent, None]:
        transport = self.transport_for(endpoint)
        transport.ready()
        slots = self._concurrency.slots(endpoint.name, endpoint.max_concurrency)
        queued = not slots.free()
        if queued:
            yield Queued()  # before the wait: no await between the look and the news
        async with slots.held(queue_key):
            rate_wait_s = self._reserve_rate_slot(endpoint)
            if rate_wait_s > 0:
                if not queued:
                    yield Queued()
                await self._sleep(rate_wait_s)
            started = self._clock()
            pieces = transport.stream(request)
            # An idle timeout: a stream may run long, but never go silent long (the first
            # piece includes the connection and the time to it).
            try:
                with IdleTimeout(request.timeout_s) as idle:
                    while True:
                        try:
                            piece = await idle.next(pieces)
                        except StopAsyncIteration:
                            break
                        progress.absorb(piece)
                        if piece.text:
                            if progress.first_token_at is None:
                                progress.first_token_at = self._clock()
                            yield TokenDelta(piece.text)
            finally:
                await pieces.aclose()  # type: ignore[attr-defined]  # the protocol says AsyncIterator; each transport's is an async generator, which has aclose
        latency_ms = (self._clock() - started) * 1000.0
        completion = Completion(
            text="".join(progress.parts),
            finish_reason=progress.finish_reason,
            prompt_tokens=progress.prompt_tokens,
            completion_tokens=progress.completion_tokens,
            cost_usd=self._cost(endpoint, progress.prompt_tokens, progress.completion_tokens),
            latency_ms=latency_ms,
            model=_served_model(progress.reported_model, endpoint.model),
            attempts=attempt,
            time_to_first_token_ms=(
                None
                if progress.first_token_at is None
                else (progress.first_token_at - started) * 1000.0
            ),
        )
        self.ledger.record_success(
            endpoint.name,
            attempts=attempt,
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=completion.completion_tokens,
            cost_usd=completion.cost_usd,
        )
        yield StreamDone(completion)

    # -- policy helpers --------------------------------------------------------------------

    def _prepare_or_record(
        self,
        endpoint: EndpointConfig,
        messages: Messages,
        params: Mapping[str, Any],
        *,
        stream: bool,
    ) -> CallRequest:
        try:
            return self._prepare(endpoint, messages, params, stream=stream)
        except GatewayError:
            self.ledger.record_failure(endpoint.name, attempts=0)
            raise

    def _prepare(
        self,
        endpoint: EndpointConfig,
        messages: Messages,
        params: Mapping[str, Any],
        *,
        stream: bool,
    ) -> CallRequest:
        merged = {**endpoint.params, **params}
        # A credential in the parameters would be sent on and recorded with them; refused
        # even for rows written before the registry checked (and for the engine's --param).
        leaked = params_problem(merged)
        if leaked is not None:
            raise GatewayError(
                "config", f"{_context(endpoint)}: {leaked}", retryable=False, attempts=0
            )
        owned = sorted(_GATEWAY_OWNED_PARAMS & merged.keys())
        if owned:
            raise GatewayError(
                "config",
                f"{_context(endpoint)}: parameters {owned} are set by the gateway",
                retryable=False,
                attempts=0,
            )
        timeout_s = float(merged.pop("timeout", endpoint.timeout_s))
        return CallRequest(
            endpoint=endpoint,
            messages=[dict(message) for message in messages],
            params=merged,
            timeout_s=timeout_s,
            api_key=_api_key(endpoint),
            stream=stream,
        )

    async def _wait_for_rate_slot(self, endpoint: EndpointConfig) -> None:
        if endpoint.requests_per_minute is None:
            return
        limiter = self._rate_limiters.get(endpoint.name, endpoint.requests_per_minute)
        await limiter.acquire()

    def _reserve_rate_slot(self, endpoint: EndpointConfig) -> float:
        """Book the next start under the per-minute limit; the seconds to wait for it (as
        ``acquire`` does, split so a stream can say it waits before it sleeps)."""
        if endpoint.requests_per_minute is None:
            return 0.0
        return self._rate_limiters.get(endpoint.name, endpoint.requests_per_minute).reserve()

    async def _wait_or_raise(
        self, endpoint: EndpointConfig, error: GatewayError, attempt: int
    ) -> None:
        """Sleep before the next attempt, or record and raise the final error."""
        if not error.retryable or attempt > endpoint.max_retries:
            if error.retryable and attempt > 1:
                error.message = f"{error.message} (gave up after {attempt} attempts)"
            raise self._record_failure(endpoint, error, attempt)
        delay = self.retry_policy.delay(attempt, error.retry_after, self._rng)
        logger.info(
            "LLM call to %s failed (%s), attempt %d of %d; retrying in %.2f s",
            endpoint.name,
            error.kind,
            attempt,
            endpoint.max_retries + 1,
            delay,
        )
        await self._sleep(delay)

    def _record_failure(
        self, endpoint: EndpointConfig, error: GatewayError, attempt: int
    ) -> GatewayError:
        error.attempts = attempt
        self.ledger.record_failure(endpoint.name, attempts=attempt)
        logger.warning("LLM call to %s failed: %s", endpoint.name, error)
        return error

    def _cost(self, endpoint: EndpointConfig, prompt_tokens: int, completion_tokens: int) -> float:
        """The call's price from the cost map, or 0.0 for models it does not know."""
        if endpoint.model.startswith(DEMO_MODEL_PREFIX):
            return 0.0
        return self.prices.cost(endpoint.model, prompt_tokens, completion_tokens)


def _api_key(endpoint: EndpointConfig) -> str | None:
    """The endpoint's key, read now (keys rotate), or a config error naming the variable.

    The variable's name is checked against the key policy first (secrets_policy.py): its
    value is sent to the endpoint's API base, so a name like DJANGO_SECRET_KEY would hand the
    platform's secret to whoever set the base. A refused variable is never read."""
    if endpoint.api_key_env is None:
        return None
    refused = key_env_problem(endpoint.api_key_env)
    if refused is not None:
        raise GatewayError(
            "config",
            f"{_context(endpoint)}: refused to read its key variable: {refused}",
            retryable=False,
            attempts=0,
        )
    value = os.environ.get(endpoint.api_key_env, "")
    if not value.strip():
        raise GatewayError(
            "config",
            f"{_context(endpoint)}: the environment variable {endpoint.api_key_env} "
            "that should hold its API key is not set",
            retryable=False,
            attempts=0,
        )
    SECRETS.add(value)
    return value


def _interrupted(
    endpoint: EndpointConfig, cause: GatewayError, progress: _StreamProgress, attempt: int
) -> GatewayError:
    return GatewayError(
        "stream_interrupted",
        f"{_context(endpoint)}: the stream broke after {len(progress.parts)} chunks "
        f"({cause.kind}: {cause.message.removeprefix(_context(endpoint) + ': ')})",
        retryable=False,
        attempts=attempt,
        status_code=cause.status_code,
        partial_text="".join(progress.parts),
    )


def _context(endpoint: EndpointConfig) -> str:
    return f"endpoint {endpoint.name!r} ({endpoint.model})"


def _served_model(reported: str | None, configured: str) -> str:
    """The model that answered: the provider's name when it adds information (a dated
    version), else the configured name (litellm strips the provider prefix)."""
    if not reported or reported == configured or configured.endswith("/" + reported):
        return configured
    return reported


_default_gateway: LLMGateway | None = None
_default_lock = threading.Lock()


def default_gateway() -> LLMGateway:
    """The process-wide gateway, so every caller shares limits and the usage ledger."""
    global _default_gateway
    with _default_lock:
        if _default_gateway is None:
            _default_gateway = LLMGateway()
        return _default_gateway
