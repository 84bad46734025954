"""Pairwise accuracy and judged draft quality (spec section 4), by hand."""

import pytest

from attunebench.records import Conversation, PairwiseComparison, Turn, TurnAnnotations
from attunebench.run_output import DraftJudgeScores, RunOutput, TurnOutput
from attunebench.scoring import draft_quality, pairwise_accuracy, score_conversation


def comparison(winner, qid="general") -> PairwiseComparison:
    return PairwiseComparison(
        question_id=qid, response_a="original", response_b="human", winner=winner
    )


def test_no_comparisons_scores_one():
    assert pairwise_accuracy((), {}) == 1.0
    assert pairwise_accuracy((), None) == 1.0


def test_share_of_matching_letters_with_a_winnerless_comparison_in_the_denominator():
    comparisons = (comparison("A"), comparison("B"), comparison(None))
    # index 0: A == A (hit); 1: A != B; 2: no winner, never a hit -> 1 / 3
    assert pairwise_accuracy(comparisons, {"0": "A", "1": "A", "2": "A"}) == pytest.approx(1 / 3)


def test_missing_em_answer_never_matches_a_missing_winner():
    assert pairwise_accuracy((comparison(None),), {}) == 0.0
    assert pairwise_accuracy((comparison(None),), {"0": None}) == 0.0


def test_missing_selections_score_zero():
    assert pairwise_accuracy((comparison("A"), comparison("B")), None) == 0.0


def test_letters_are_normalised():
    # " b " -> "B": 2 hits of 2
    assert pairwise_accuracy((comparison("A"), comparison("B")), {"0": "a", "1": " b "}) == 1.0


def test_draft_quality_by_hand():
    assert draft_quality(DraftJudgeScores(7, 7, 7, 7)) == 1.0  # (7 - 1) / 6
    assert draft_quality(DraftJudgeScores(1, 1, 1, 1)) == 0.0  # (1 - 1) / 6
    # mean(5, 4, 6, 3) = 4.5 -> (4.5 - 1) / 6 = 0.583333
    assert draft_quality(DraftJudgeScores(5, 4, 6, 3)) == pytest.approx(3.5 / 6)
    # only one dimension present: (4 - 1) / 6 = 0.5
    assert draft_quality(DraftJudgeScores(overall_score=4)) == pytest.approx(0.5)
    assert draft_quality(DraftJudgeScores()) is None
    assert draft_quality(None) is None


def test_conversation_means_over_turns():
    conversation = Conversation(
        conversation_id="c1",
        turns=(
            Turn(
                1,
                "m",
                "r",
                annotations=TurnAnnotations(
                    pairwise_comparisons=(comparison("B"), comparison("A"))
                ),
            ),
            Turn(2, "m", "r"),  # no comparisons -> 1.0
        ),
    )
    run = RunOutput(
        conversation_id="c1",
        turns=(
            TurnOutput(
                turn_number=1,
                em_pairwise_selections={"0": "B", "1": "B"},  # 1 hit of 2 -> 0.5
                em_draft_judge_scores=DraftJudgeScores(4, 4, 4, 4),  # (4 - 1) / 6 = 0.5
            ),
            TurnOutput(turn_number=2),  # no judge -> draft not scored
        ),
    )
    scores = score_conversation(conversation, run)
    assert scores.avg_pairwise_accuracy == pytest.approx(0.75)  # (0.5 + 1.0) / 2
    assert scores.avg_draft_judge_score == pytest.approx(0.5)  # turn 1 only
    assert scores.judged_response_quality == pytest.approx(0.5)
    assert [t.n_pairwise for t in scores.turns] == [2, 0]
