"""Post-conversation PANAS strategies (section 3): absolute shows the pre totals and predicts
items; delta shows them and predicts changes; blind_delta shows no pre scores."""

import pytest

from attune_collect.llm import EndpointConfig
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.runner import RunOptions, run_unit
from tests.engine.conftest import FakeGateway


@pytest.mark.parametrize("strategy", ["absolute", "delta", "blind_delta"])
async def test_each_strategy_asks_and_records_its_own_shape(conversations, strategy):
    conversation = conversations[0]
    gateway = FakeGateway()
    output = await run_unit(
        conversation,
        EndpointConfig("fake/em"),
        "default",
        RunOptions(panas_strategy=strategy),
        CallExecutor(MemoryCallCache(), gateway),
    )
    post = output.post_conversation
    prompt = next(
        m[-1]["content"]
        for _, m in gateway.requests
        if "conversation has ended" in m[-1]["content"]
    )
    pre = conversation.pre_panas
    totals = f"positive affect {pre.total_positive} and negative affect {pre.total_negative}"
    assert post.panas_strategy == strategy
    if strategy == "absolute":
        assert post.predicted_panas_delta is None
        assert all(1 <= v <= 7 for v in post.predicted_post_panas.items.values())
    else:
        assert post.predicted_post_panas is None
        assert all(-6 <= v <= 6 for v in post.predicted_panas_delta.items.values())
        assert "changed from before to after" in prompt
    if strategy == "blind_delta":
        assert totals not in prompt and post.pre_panas_shown is False
    else:
        assert totals in prompt
        assert post.pre_panas_shown == {
            "totalPositiveAffect": pre.total_positive,
            "totalNegativeAffect": pre.total_negative,
        }
    assert len(post.predicted_conversation_wide.four_branch_scores) == 4
