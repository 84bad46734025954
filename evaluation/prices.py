"""Model prices, from litellm's cost map only: a model it does not know has no price.

Never a guess: an estimate with an unknown price says "unknown" rather than a number that looks
authoritative. The offline demo models are free (the gateway charges them nothing). The map and
its per-model lookup are the gateway's (``attune_collect.llm.prices``), so an estimate and the
ledger of the calls it estimates use the same prices, and neither imports litellm for them.
"""

from __future__ import annotations

from attune_collect.llm import DEMO_MODEL_PREFIX
from attune_collect.llm.prices import FREE, Price, default_price_book

__all__ = ["Price", "model_price"]


def model_price(model: str) -> Price | None:
    """The price litellm's map gives the model string, or None when it has none."""
    if model.startswith(DEMO_MODEL_PREFIX):
        return FREE
    return default_price_book().price(model)
