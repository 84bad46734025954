"""Cost accounting: prices from litellm's cost map, read once per process and once per model,
and the same cost on both transports."""

import pytest

from attune_collect.llm import LLMGateway
from attune_collect.llm._litellm import load_litellm
from attune_collect.llm.prices import Price, PriceBook, bundled_cost_map

MESSAGES = [{"role": "user", "content": "hello there friend"}]


@pytest.mark.parametrize("model", ["openai/gpt-4o-mini", "gpt-4o", "openai/gpt-3.5-turbo"])
def test_prices_agree_with_litellms_own_lookup(model):
    litellm = load_litellm()
    prompt_cost, completion_cost = litellm.cost_per_token(
        model=model, prompt_tokens=1000, completion_tokens=500
    )

    cost = PriceBook().cost(model, 1000, 500)

    assert cost == pytest.approx(prompt_cost + completion_cost)
    assert cost > 0


def test_the_map_is_read_once_and_each_model_looked_up_once():
    reads = []

    def load():
        reads.append(1)
        return {
            "gpt-4o-mini": {
                "input_cost_per_token": 1e-6,
                "output_cost_per_token": 2e-6,
                "litellm_provider": "openai",
            }
        }

    book = PriceBook(load)

    assert book.price("openai/gpt-4o-mini") == Price(1e-6, 2e-6)
    assert book.price("openai/gpt-4o-mini") is book.price("openai/gpt-4o-mini")
    assert book.price("unknown/model") is None
    assert book.cost("unknown/model", 10, 10) == 0.0
    assert len(reads) == 1


def test_a_model_of_another_provider_with_the_same_name_has_no_price():
    book = PriceBook(
        lambda: {
            "m": {
                "input_cost_per_token": 1.0,
                "output_cost_per_token": 1.0,
                "litellm_provider": "openai",
            }
        }
    )

    assert book.price("anthropic/m") is None


def test_the_bundled_file_is_litellms_cost_map():
    assert bundled_cost_map()["gpt-4o-mini"]["litellm_provider"] == "openai"


async def test_both_transports_charge_the_same_for_a_priced_model(make_endpoint, openai_server):
    # The test server answers any model name: call it "gpt-4o-mini", which the map prices.
    direct, forced = LLMGateway(), LLMGateway()
    endpoint = make_endpoint(model="openai/gpt-4o-mini", force_litellm=False)
    via_litellm = make_endpoint(model="openai/gpt-4o-mini", force_litellm=True)

    first = await direct.complete(endpoint, MESSAGES)
    streamed = [e async for e in forced.stream(via_litellm, MESSAGES)][-1].completion
    again = await forced.complete(via_litellm, MESSAGES)

    expected = 3 * 1.5e-07 + 7 * 6e-07  # 3 prompt and 7 completion tokens at the map's prices
    assert first.cost_usd == pytest.approx(expected)
    assert streamed.cost_usd == pytest.approx(expected)
    assert again.cost_usd == pytest.approx(expected)
    assert direct.ledger.total().cost_usd == pytest.approx(expected)
