"""Pairwise letters: A/B are shown in a seeded order (against position bias), and the EM's
letter is mapped back to the participant's A/B frame before it is stored and scored."""

import json

from attune_collect.llm import EndpointConfig
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.pairwise import present
from attunebench.runner import RunOptions, run_unit
from tests.engine.conftest import FakeGateway, demo_json_reply


def always_shown_a(model, messages):
    answer = json.loads(demo_json_reply(messages))
    if "selections" in answer:
        answer["selections"] = {index: "A" for index in answer["selections"]}
    return json.dumps(answer)


async def test_letters_are_stored_in_the_participants_frame(conversations):
    conversation = max(conversations, key=lambda c: len(c.turns))
    executor = CallExecutor(MemoryCallCache(), FakeGateway(always_shown_a))
    output = await run_unit(
        conversation, EndpointConfig("fake/em"), "default", RunOptions(), executor
    )

    swaps = 0
    for turn, turn_output in zip(conversation.turns, output.turns, strict=True):
        comparisons = turn.annotations.pairwise_comparisons
        assert set(turn_output.em_pairwise_selections) == {str(i) for i in range(len(comparisons))}
        for index, comparison in enumerate(comparisons):
            shown = turn_output.pairwise_assignment[str(index)]
            assert {shown["A"], shown["B"]} == {comparison.response_a, comparison.response_b}
            swapped = shown["A"] != comparison.response_a
            swaps += swapped
            # The EM always picked what it saw as A: that is the participant's B when swapped.
            assert turn_output.em_pairwise_selections[str(index)] == ("B" if swapped else "A")
    assert swaps  # the seeded order does swap some comparisons


def test_presentation_is_seeded_and_can_be_turned_off(conversations):
    turn = conversations[0].turns[0]
    first = present(turn, conversation_id="c1", seed=3)
    assert present(turn, conversation_id="c1", seed=3) == first  # the same for every model
    plain = present(turn, conversation_id="c1", shuffle=False)
    assert not any(shown.swapped for shown in plain.comparisons)
    assert plain.numbering == {"original": 1, "alternate": 2, "human": 3}
    assert plain.selections({"0": "B"}) == {"0": "B"}
