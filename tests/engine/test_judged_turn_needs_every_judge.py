"""Judged response quality: a turn keeps its judged score only when every configured judge
answered. Averaging whichever judges answered lets a failed call swap a harsh judge for a
lenient one on some turns (the audit's case: 0.633 instead of 0.500); such a turn's judged score
is undefined instead, left out of the axis mean like every undefined score, and counted in
``parse_failures["draft_judge_turns"]`` beside the judges' own failures."""

import json

import pytest

from attune_collect.llm import EndpointConfig
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.judging import combine_scores
from attunebench.records import Conversation, Turn
from attunebench.run_output import DraftJudgeScores, RunOutput, TurnOutput
from attunebench.runner import RunOptions, run_unit
from attunebench.schemas import JUDGE_DIMENSIONS
from attunebench.scoring import score_conversation
from tests.engine.conftest import FakeGateway, demo_json_reply

LENIENT, HARSH = "fake/judge-l", "fake/judge-h"
JUDGES = (LENIENT, HARSH)


def test_a_turn_without_every_judge_has_no_combined_score():
    lenient, harsh = DraftJudgeScores(6, 6, 6, 6), DraftJudgeScores(2, 2, 2, 2)
    assert combine_scores({LENIENT: lenient, HARSH: harsh}, JUDGES) == DraftJudgeScores(4, 4, 4, 4)
    assert combine_scores({LENIENT: lenient}, JUDGES) is None
    assert combine_scores({}, JUDGES) is None


def test_the_audit_example_scores_one_half_not_0_633():
    # 10 turns; both judges answer 6 of them, the harsh one fails on the other 4.
    lenient, harsh = DraftJudgeScores(6, 6, 6, 6), DraftJudgeScores(2, 2, 2, 2)
    by_turn = [{LENIENT: lenient, HARSH: harsh}] * 6 + [{LENIENT: lenient}] * 4
    conversation = Conversation("c1", turns=tuple(Turn(n, "u", "r") for n in range(1, 11)))
    turns = tuple(
        TurnOutput(n, em_draft_judge_scores=combine_scores(scores, JUDGES))
        for n, scores in enumerate(by_turn, start=1)
    )
    scores = score_conversation(conversation, RunOutput("c1", em_model="m", turns=turns))
    assert scores.judged_response_quality == pytest.approx(0.5)  # (4 - 1) / 6 over 6 turns


async def test_the_runner_drops_and_counts_turns_a_judge_did_not_answer(conversations):
    conversation = conversations[0]
    # The harsh judge gives no usable answer on the drafts of the turns with this message.
    failing = conversation.turns[-1].user_message
    dropped = {t.turn_number for t in conversation.turns if t.user_message == failing}

    def reply(model: str, messages) -> str:
        text = demo_json_reply(messages)
        prompt = messages[1]["content"]
        if model not in JUDGES or "Reply to judge:" not in prompt:
            return text
        if model == HARSH and f"Participant: {failing}" in prompt:
            return "I would rather not say."
        answer = json.loads(text.strip().removeprefix("```json").removesuffix("```"))
        answer |= dict.fromkeys(JUDGE_DIMENSIONS, 6 if model == LENIENT else 2)
        return json.dumps(answer)

    output = await run_unit(
        conversation,
        EndpointConfig("fake/em"),
        "default",
        RunOptions(judges=tuple(EndpointConfig(j) for j in JUDGES), max_reasks=0),
        CallExecutor(MemoryCallCache(), FakeGateway(reply)),
    )
    assert 0 < len(dropped) < len(output.turns)
    for turn in output.turns:
        if turn.turn_number in dropped:
            assert turn.em_draft_judge_scores is None
            assert set(turn.em_draft_judge_scores_by_model) == {LENIENT}  # what was said stays
        else:
            assert turn.em_draft_judge_scores == DraftJudgeScores(4, 4, 4, 4)
    assert output.parse_failures["draft_judge_turns"] == {
        "calls": len(output.turns),
        "failures": len(dropped),
    }
    assert output.parse_failures["draft_judge"]["failures"] == len(dropped)
    scores = score_conversation(conversation, output)
    assert scores.judged_response_quality == pytest.approx(0.5)
