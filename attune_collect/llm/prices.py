"""Prices per token, from litellm's cost map, looked up once per model and kept.

Both transports price a call the same way: prompt tokens x input price + completion tokens x
output price, from the same map. The map is litellm's bundled JSON file, read as a file, so a
process that only calls OpenAI-compatible endpoints never imports litellm to price them. When
litellm is already imported its in-memory map is used instead (it holds the same file plus any
model a deployment registered with ``litellm.register_model``).

A model missing from the map has no price: its calls cost 0.0 in the ledger, never a guess.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

COST_MAP_FILE = "model_prices_and_context_window_backup.json"

CostMap = Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class Price:
    input_per_token: float
    output_per_token: float

    def cost(self, prompt_tokens: float, completion_tokens: float) -> float:
        return prompt_tokens * self.input_per_token + completion_tokens * self.output_per_token


FREE = Price(0.0, 0.0)


def bundled_cost_map() -> CostMap:
    """litellm's cost map: its live module's when imported, else its bundled file."""
    litellm = sys.modules.get("litellm")
    if litellm is not None and getattr(litellm, "model_cost", None):
        live: CostMap = litellm.model_cost
        return live
    spec = importlib.util.find_spec("litellm")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(next(iter(spec.submodule_search_locations))) / COST_MAP_FILE
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class PriceBook:
    """Prices by model string, cached: the map is read on the first lookup only."""

    def __init__(self, load_map: Callable[[], CostMap] = bundled_cost_map) -> None:
        self._load_map = load_map
        self._map: CostMap | None = None
        self._prices: dict[str, Price | None] = {}
        self._lock = threading.Lock()

    def price(self, model: str) -> Price | None:
        """The model's price, or None when the map does not know it."""
        try:
            return self._prices[model]
        except KeyError:
            pass
        with self._lock:
            if self._map is None:
                self._map = self._load_map()
            price = self._prices[model] = _lookup(self._map, model)
        return price

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int) -> float:
        price = self.price(model)
        return 0.0 if price is None else price.cost(prompt_tokens, completion_tokens)

    def warm(self) -> None:
        """Read the map now (a web process does it at start-up, not on its first reply)."""
        self.price("")


def _lookup(cost_map: CostMap, model: str) -> Price | None:
    """As litellm looks a model string up: the full string, then without its provider."""
    candidates = [model]
    provider, _, name = model.partition("/")
    if name:
        candidates.append(name)
    for key in candidates:
        entry = cost_map.get(key)
        if not isinstance(entry, Mapping):
            continue
        if name and key == name and entry.get("litellm_provider") not in (None, provider):
            continue  # another provider's model of the same name
        input_price, output_price = (
            entry.get("input_cost_per_token"),
            entry.get("output_cost_per_token"),
        )
        if isinstance(input_price, int | float) and isinstance(output_price, int | float):
            return Price(float(input_price), float(output_price))
    return None


_default_book = PriceBook()


def default_price_book() -> PriceBook:
    """The process's price book (one read of the map per process)."""
    return _default_book
