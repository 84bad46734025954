"""Every model call of the engine: cache first, then limits, then the LLM gateway.

Per call: look the key up in the call cache (a hit costs nothing and is never repeated); join an
identical call already in flight in this process (the out-of-thread calls of the default and
omniscient modes are the same request); otherwise wait for a slot of the model (priority by
rank), book tokens against its tokens-per-minute budget, call through the gateway (which owns
timeouts, retries with backoff honouring Retry-After, the requests-per-minute pacing and the
usage ledger), and store the answer before returning it.

One executor per event loop: its slots and in-flight table belong to the loop that uses them.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from attune_collect.llm import GatewayError, LLMGateway, default_gateway
from evaluation.benchmark.cache import CachedCall, CallCache, call_key
from evaluation.benchmark.model_spec import ModelSpec
from evaluation.benchmark.slots import PrioritySlots, Rank
from evaluation.benchmark.token_limits import TokenRateLimiter, estimate_tokens

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


class CallExecutor:
    def __init__(
        self,
        cache: CallCache,
        gateway: LLMGateway | None = None,
        *,
        on_call: Callable[[CallEvent], None] | None = None,
    ) -> None:
        self.cache = cache
        self.gateway = gateway or default_gateway()
        self.on_call = on_call
        self._slots: dict[str, PrioritySlots] = {}
        self._token_limits: dict[str, TokenRateLimiter] = {}
        self._inflight: dict[str, asyncio.Future[CallResult]] = {}
        self._usage: dict[str, ModelUsage] = {}
        self._refused: dict[str, GatewayError] = {}  # model -> its auth/config error
        self._lock = threading.Lock()

    def usage(self) -> dict[str, ModelUsage]:
        with self._lock:
            return {model: replace(usage) for model, usage in self._usage.items()}

    async def complete(self, spec: ModelSpec, messages: Messages, *, rank: Rank = ()) -> CallResult:
        """The model's answer to ``messages``. Raises GatewayError when the call fails."""
        key = call_key(spec.model, spec.params, messages)
        shared = self._inflight.get(key)
        if shared is not None:
            result = replace(await asyncio.shield(shared), cached=True)
            self._record(spec.model, result)
            return result
        hit = await self.cache.get(key)
        if hit is not None:
            result = CallResult(
                hit.text, True, hit.prompt_tokens, hit.completion_tokens, hit.cost_usd
            )
            self._record(spec.model, result)
            return result
        refused = self._refused.get(spec.model)
        if refused is not None:
            # A bad key or configuration fails every call the same way: do not ask again
            # (answers already in the cache are still served above).
            raise refused
        future: asyncio.Future[CallResult] = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            result = await self._call(spec, messages, key, rank)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as exc:
            if isinstance(exc, GatewayError):
                self._record_error(spec.model)
                if exc.kind in REFUSAL_KINDS:
                    self._refused[spec.model] = exc
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning when nobody joined
            raise
        finally:
            del self._inflight[key]
        future.set_result(result)
        self._record(spec.model, result)
        return result

    async def _call(self, spec: ModelSpec, messages: Messages, key: str, rank: Rank) -> CallResult:
        async with self._slots_for(spec).slot(rank):
            limiter = self._token_limit_for(spec)
            booking = None
            if limiter is not None:
                booking = await limiter.acquire(
                    estimate_tokens(messages, spec.params.get("max_tokens"))
                )
            completion = await self.gateway.complete(spec.endpoint(), messages)
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

    def _slots_for(self, spec: ModelSpec) -> PrioritySlots:
        slots = self._slots.get(spec.model)
        if slots is None or slots.limit != spec.max_concurrency:
            slots = self._slots[spec.model] = PrioritySlots(spec.max_concurrency)
        return slots

    def _token_limit_for(self, spec: ModelSpec) -> TokenRateLimiter | None:
        if spec.tokens_per_minute is None:
            return None
        limiter = self._token_limits.get(spec.model)
        if limiter is None or limiter.per_minute != spec.tokens_per_minute:
            limiter = self._token_limits[spec.model] = TokenRateLimiter(spec.tokens_per_minute)
        return limiter

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
