"""Every model call of the engine: cache first, then limits, then the LLM gateway.

Per call: join an identical call already in flight in this process (the out-of-thread calls of
the default and omniscient modes are the same request, and so are the drafts of conversations
that open alike); otherwise look the key up in the call cache (a hit costs nothing and is never
repeated), wait for a slot of the model (priority by rank), book tokens against its
tokens-per-minute budget, call through the gateway (which owns timeouts, retries with backoff
honouring Retry-After, the requests-per-minute pacing and the usage ledger), and store the
answer before returning it.

Two parts, so that the limits hold for a whole worker process:

- ``CallPool``: what must be shared by every call of the process: the cache, the gateway,
  the tokens-per-minute windows and the table of calls in flight.
  It serves any number of event loops and threads (a Django worker runs each unit in a fresh
  loop); only the priority slots (``max_concurrency``) are per event loop, as the gateway's own
  concurrency limit is.
- ``CallExecutor``: one per batch or unit, counting that batch's usage and reporting its calls,
  over its own pool or a shared one (``CallExecutor(pool=...)``). It also remembers the models
  that refused (a bad key): for the batch or unit only, so a fixed key works on the next unit.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from attune_collect.llm import EndpointConfig, GatewayError, LLMGateway, default_gateway
from attunebench.cache import CachedCall, CallCache, call_key
from attunebench.slots import PrioritySlots, Rank
from attunebench.token_limits import TokenRateLimiter, estimate_tokens

Messages = Sequence[Mapping[str, Any]]
REFUSAL_KINDS = frozenset({"auth", "config"})  # no later call of the model can succeed


@dataclass(frozen=True)
class CallResult:
    text: str
    cached: bool  # served by the cache or by an identical call in flight: no new request
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float  # what the answer cost when it was made (0 for unpriced models)


@dataclass(frozen=True)
class CallEvent:
    """Reported after every call, for progress displays."""

    model: str
    cached: bool
    ok: bool
    cost_usd: float  # money spent now: 0 for a cached answer


@dataclass
class ModelUsage:
    """What one model cost in this process. ``cost_usd`` is money spent by calls made now;
    ``cached_cost_usd`` is what the answers served from the cache cost when they were made."""

    made: int = 0
    cached: int = 0
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    cached_cost_usd: float = 0.0


class _OwnerGone(Exception):
    """The call a joiner waited on was cancelled: the joiner makes the call itself."""


class CallPool:
    """The process-wide part of the executor (see the module docstring)."""

    def __init__(self, cache: CallCache, gateway: LLMGateway | None = None) -> None:
        self.cache = cache
        self.gateway = gateway or default_gateway()
        self._slots: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, dict[str, PrioritySlots]
        ] = weakref.WeakKeyDictionary()
        self._token_limits: dict[str, TokenRateLimiter] = {}
        # concurrent futures, not asyncio ones: a call made in one loop may be joined from another
        self._inflight: dict[str, concurrent.futures.Future[CallResult]] = {}
        self._lock = threading.Lock()

    async def call(
        self,
        spec: EndpointConfig,
        messages: Messages,
        rank: Rank = (),
        *,
        refused: dict[str, GatewayError] | None = None,
    ) -> CallResult:
        """The answer, joined, cached or made. Raises GatewayError when the call fails.

        ``refused`` (model -> its auth/config error) is the caller's memory of models that
        cannot be called: such a model's uncached calls fail at once, and a new refusal is added.
        """
        refused = {} if refused is None else refused
        key = call_key(spec.model, spec.params, messages)
        while True:
            with self._lock:
                shared = self._inflight.get(key)
                if shared is None:
                    own: concurrent.futures.Future[CallResult] = concurrent.futures.Future()
                    self._inflight[key] = own
                    break
            try:
                # shielded: a joiner that is cancelled must not cancel the call for the others
                result = await asyncio.shield(asyncio.wrap_future(shared))
            except _OwnerGone:
                continue
            return replace(result, cached=True)
        try:
            result = await self._cached_or_made(spec, messages, key, rank, refused)
        except BaseException as exc:
            self._settle(key, own, _OwnerGone() if isinstance(exc, asyncio.CancelledError) else exc)
            raise
        self._settle(key, own, result)
        return result

    def _settle(
        self,
        key: str,
        future: concurrent.futures.Future[CallResult],
        outcome: CallResult | BaseException,
    ) -> None:
        with self._lock:
            del self._inflight[key]  # first, so a joiner that must retry finds no stale entry
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)

    async def _cached_or_made(
        self,
        spec: EndpointConfig,
        messages: Messages,
        key: str,
        rank: Rank,
        refused: dict[str, GatewayError],
    ) -> CallResult:
        hit = await self.cache.get(key)
        if hit is not None:
            return CallResult(
                hit.text, True, hit.prompt_tokens, hit.completion_tokens, hit.cost_usd
            )
        refusal = refused.get(spec.model)
        if refusal is not None:
            # A bad key or configuration fails every call the same way: do not ask again
            # (answers already in the cache are still served above).
            raise refusal
        return await self._make(spec, messages, key, rank)

    async def _make(
        self, spec: EndpointConfig, messages: Messages, key: str, rank: Rank
    ) -> CallResult:
        async with self._slots_for(spec).slot(rank):
            limiter = self._token_limit_for(spec)
            booking = None
            if limiter is not None:
                booking = await limiter.acquire(
                    estimate_tokens(messages, spec.params.get("max_tokens"))
                )
            completion = await self.gateway.complete(spec, messages)
            if limiter is not None and booking is not None:
                limiter.settle(booking, completion.prompt_tokens + completion.completion_tokens)
        stored = await self.cache.put(
            key,
            CachedCall(
                text=completion.text,
                model=completion.model,
                prompt_tokens=completion.prompt_tokens,
                completion_tokens=completion.completion_tokens,
                cost_usd=completion.cost_usd,
            ),
        )
        return CallResult(
            stored.text, False, stored.prompt_tokens, stored.completion_tokens, stored.cost_usd
        )

    def _slots_for(self, spec: EndpointConfig) -> PrioritySlots:
        loop = asyncio.get_running_loop()
        with self._lock:
            per_loop = self._slots.setdefault(loop, {})
            slots = per_loop.get(spec.model)
            if slots is None or slots.limit != spec.max_concurrency:
                slots = per_loop[spec.model] = PrioritySlots(spec.max_concurrency)
            return slots

    def _token_limit_for(self, spec: EndpointConfig) -> TokenRateLimiter | None:
        if spec.tokens_per_minute is None:
            return None
        with self._lock:
            limiter = self._token_limits.get(spec.model)
            if limiter is None or limiter.per_minute != spec.tokens_per_minute:
                limiter = self._token_limits[spec.model] = TokenRateLimiter(spec.tokens_per_minute)
            return limiter

    def close(self) -> None:
        self.cache.close()


class CallExecutor:
    """A batch's or a unit's calls: over its own pool (``cache`` and ``gateway``), or over a
    shared one (``pool``), counting this executor's usage and reporting each call."""

    def __init__(
        self,
        cache: CallCache | None = None,
        gateway: LLMGateway | None = None,
        *,
        on_call: Callable[[CallEvent], None] | None = None,
        pool: CallPool | None = None,
    ) -> None:
        if (pool is None) == (cache is None):
            raise ValueError("a CallExecutor needs a cache or a shared pool, not both")
        self.pool = pool if pool is not None else CallPool(cache, gateway)  # type: ignore[arg-type]  # cache is not None here: exactly one of cache and pool is given
        self.on_call = on_call
        self._usage: dict[str, ModelUsage] = {}
        self._refused: dict[str, GatewayError] = {}  # model -> its auth/config error
        self._lock = threading.Lock()

    @property
    def cache(self) -> CallCache:
        return self.pool.cache

    @property
    def gateway(self) -> LLMGateway:
        return self.pool.gateway

    def usage(self) -> dict[str, ModelUsage]:
        with self._lock:
            return {model: replace(usage) for model, usage in self._usage.items()}

    async def complete(
        self, spec: EndpointConfig, messages: Messages, *, rank: Rank = ()
    ) -> CallResult:
        """The model's answer to ``messages``. Raises GatewayError when the call fails."""
        try:
            result = await self.pool.call(spec, messages, rank, refused=self._refused)
        except GatewayError as exc:
            if exc.kind in REFUSAL_KINDS:
                self._refused.setdefault(spec.model, exc)
            self._record_error(spec.model)
            raise
        self._record(spec.model, result)
        return result

    def _record(self, model: str, result: CallResult) -> None:
        with self._lock:
            usage = self._usage.setdefault(model, ModelUsage())
            if result.cached:
                usage.cached += 1
                usage.cached_cost_usd += result.cost_usd
            else:
                usage.made += 1
                usage.prompt_tokens += result.prompt_tokens
                usage.completion_tokens += result.completion_tokens
                usage.cost_usd += result.cost_usd
        if self.on_call is not None:
            spent = 0.0 if result.cached else result.cost_usd
            self.on_call(CallEvent(model, result.cached, True, spent))

    def _record_error(self, model: str) -> None:
        with self._lock:
            self._usage.setdefault(model, ModelUsage()).errors += 1
        if self.on_call is not None:
            self.on_call(CallEvent(model, False, False, 0.0))
