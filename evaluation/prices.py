"""Model prices, from litellm's bundled price list only: a model it does not know has no price.

Never a guess: an estimate with an unknown price says "unknown" rather than a number that looks
authoritative. The offline demo models are free (the gateway charges them nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from attune_collect.llm import DEMO_MODEL_PREFIX
from attune_collect.llm._litellm import load_litellm

_PER = 1_000_000  # priced per million tokens, so per-token prices keep their digits


@dataclass(frozen=True)
class Price:
    input_per_token: float
    output_per_token: float

    def cost(self, prompt_tokens: float, completion_tokens: float) -> float:
        return prompt_tokens * self.input_per_token + completion_tokens * self.output_per_token


@cache
def model_price(model: str) -> Price | None:
    """The price litellm's list gives the model string, or None when it has none."""
    if model.startswith(DEMO_MODEL_PREFIX):
        return Price(0.0, 0.0)
    litellm = load_litellm()
    try:
        input_cost, _ = litellm.cost_per_token(model=model, prompt_tokens=_PER, completion_tokens=0)
        _, output_cost = litellm.cost_per_token(
            model=model, prompt_tokens=0, completion_tokens=_PER
        )
    except Exception:  # litellm raises its own "not mapped" / "provider not provided" errors
        return None
    return Price(float(input_cost) / _PER, float(output_cost) / _PER)
