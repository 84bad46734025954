"""Model-free baselines: determinism, shapes, and their scores worked out by hand."""

import pytest

from attunebench.baselines import (
    BASELINE_NAMES,
    all_baseline_runs,
    baseline_model_name,
    baseline_runs,
    ground_truth_stats,
)
from attunebench.records import (
    BinaryJudgement,
    Conversation,
    ConversationWide,
    FourBranchScores,
    MoodTag,
    PairwiseComparison,
    Panas,
    Turn,
    TurnAnnotations,
)
from attunebench.run_output import dumps_run_output, loads_run_output
from attunebench.scoring import score_conversation
from attunebench.vocabulary import PANAS_ITEMS, PANAS_NEGATIVE, PANAS_POSITIVE


def uniform_panas(value: int) -> Panas:
    return Panas(
        items={name: value for name in PANAS_ITEMS},
        total_positive=10 * value,
        total_negative=10 * value,
    )


def turn(number, tags=(), judgements=(), comparisons=()) -> Turn:
    return Turn(
        number,
        "message",
        "reply",
        mood_tags=tuple(MoodTag(name, 4) for name in tags),
        annotations=TurnAnnotations(
            binary_judgements=tuple(
                BinaryJudgement(q, observed=o, preferred=p) for q, o, p in judgements
            ),
            pairwise_comparisons=tuple(
                PairwiseComparison(q, "original", "human", w) for q, w in comparisons
            ),
        ),
    )


def conversations() -> list[Conversation]:
    c1 = Conversation(
        conversation_id="c1",
        pre_panas=uniform_panas(2),  # totals 20 / 20
        post_panas=uniform_panas(3),  # totals 30 / 30
        conversation_wide=ConversationWide(
            ("vent",), "clear", "mixed", (), FourBranchScores(perceiving=5)
        ),
        turns=(
            turn(1, (), [("B1", "yes", "yes"), ("B2", "no", "no")], [("general", "B")]),
            turn(2, ("Upset",), [("B1", "yes", "no")]),
        ),
    )
    c2 = Conversation(
        conversation_id="c2",
        pre_panas=uniform_panas(3),
        post_panas=uniform_panas(3),
        conversation_wide=ConversationWide(
            ("vent",),
            "clear",
            "mostly",
            ("too long",),
            FourBranchScores(perceiving=5, facilitating=3),
        ),
        turns=(turn(1, (), [("B1", "no", "yes")], [("general", "B"), ("PW1", "A")]),),
    )
    c3 = Conversation(
        conversation_id="c3",
        pre_panas=uniform_panas(4),
        post_panas=uniform_panas(5),
        conversation_wide=ConversationWide(
            ("calm", "vent"), "implied", "mixed", (), FourBranchScores(perceiving=6)
        ),
        turns=(turn(1, (), [("B1", "yes", None), ("B2", "na", "na")], [("general", "A")]),),
    )
    return [c1, c2, c3]


def test_model_names():
    assert [baseline_model_name(n) for n in BASELINE_NAMES] == [
        "baseline/random",
        "baseline/majority",
        "baseline/no_change",
        "baseline/always_a",
    ]
    with pytest.raises(ValueError):
        baseline_model_name("oracle")


def test_majority_statistics_by_hand():
    stats = ground_truth_stats(conversations())
    # tag sets over the 4 turns: (), (Upset,), (), () -> empty set
    assert stats.tag_set == ()
    # B1 OM truths: yes, yes, no, yes -> yes. B1 human: yes, no, yes, yes (observed) -> yes.
    # B2: only c1 (no/no); c3's B2 is na/na, not applicable.
    assert stats.om_answers == {"B1": "yes", "B2": "no"}
    assert stats.human_answers == {"B1": "yes", "B2": "no"}
    # general winners B, B, A -> B; PW1 -> A; overall A 2, B 2 -> tie goes to A
    assert stats.pairwise_winners == {"PW1": "A", "general": "B"}
    assert stats.default_winner == "A"
    # post items: 3, 3, 5 -> 3 for every item
    assert set(stats.post_items.values()) == {3}
    assert (stats.looking_for, stats.emotion_clarity, stats.model_fit, stats.what_felt_off) == (
        ("vent",),
        "clear",
        "mixed",
        (),
    )
    # perceiving 5, 5, 6 -> 5; facilitating 3; nobody rated the others -> 4
    assert stats.four_branch == {
        "perceiving": 5,
        "facilitating": 3,
        "understanding": 4,
        "managing": 4,
    }


def test_majority_baseline_scores_by_hand():
    runs = {run.conversation_id: run for run in baseline_runs(conversations(), "majority")}
    c1_run = runs["c1"]
    assert c1_run.em_model == "baseline/majority"
    assert c1_run.turns[0].em_binary_om_assessment == {"B1": "yes", "B2": "no"}
    assert c1_run.turns[0].em_pairwise_selections == {"0": "B"}
    assert c1_run.post_conversation.predicted_post_panas.total_positive == 30
    scores = score_conversation(conversations()[0], c1_run)
    # F1: turn 1 both empty 1, turn 2 {Upset} vs {} 0 -> 0.5
    assert scores.avg_emotion_f1 == pytest.approx(0.5)
    # OM: turn 1 yes/yes, no/no -> 1; turn 2 yes/yes -> 1
    assert scores.avg_binary_om_accuracy == 1.0
    # human: turn 1 (yes,yes) (no,no) -> 1; turn 2 truth no, predicted yes -> 0 -> 0.5
    assert scores.avg_binary_human_accuracy == pytest.approx(0.5)
    assert scores.avg_pairwise_accuracy == 1.0  # B == B, then no comparisons
    # PANAS: pre 20, post 30, predicted 30 on both totals -> adj 1 -> score 1
    assert scores.panas_score == pytest.approx(1.0)
    assert (scores.q1_f1, scores.q2_match, scores.q3_match, scores.followup_f1) == (
        1.0,
        1.0,
        1.0,
        1.0,
    )
    assert scores.four_branch_score == 1.0
    assert scores.perspective_gap == 0.0  # HP-worded answers equal the in-thread ones


def test_no_change_baseline_predicts_pre_and_scores_one_half_on_panas():
    run = baseline_runs(conversations(), "no_change")[0]
    predicted = run.post_conversation.predicted_post_panas
    assert (predicted.total_positive, predicted.total_negative) == (20, 20)
    # adjusted = (raw - naive) / (1 - naive) = 0 on both totals -> PANASscore 0.5
    assert score_conversation(conversations()[0], run).panas_score == pytest.approx(0.5)


def test_always_a_baseline():
    runs = baseline_runs(conversations(), "always_a")
    assert runs[1].turns[0].em_pairwise_selections == {"0": "A", "1": "A"}
    # c1: turn 1 A vs winner B -> 0; turn 2 no comparisons -> 1 -> mean 0.5
    assert score_conversation(conversations()[0], runs[0]).avg_pairwise_accuracy == pytest.approx(
        0.5
    )
    # c2: general B (miss), PW1 A (hit) -> 0.5
    assert score_conversation(conversations()[1], runs[1]).avg_pairwise_accuracy == pytest.approx(
        0.5
    )


def test_random_baseline_is_deterministic_for_a_seed():
    first = [dumps_run_output(r) for r in baseline_runs(conversations(), "random", seed=7)]
    again = [dumps_run_output(r) for r in baseline_runs(conversations(), "random", seed=7)]
    other = [dumps_run_output(r) for r in baseline_runs(conversations(), "random", seed=8)]
    assert first == again
    assert first != other
    # A conversation's turn answers do not depend on the rest of the batch.
    alone = baseline_runs(conversations()[:1], "random", seed=7)[0]
    assert alone.turns == loads_run_output(first[0]).turns


def test_random_baseline_answers_have_the_right_shape():
    for run in baseline_runs(conversations(), "random", seed=3):
        for output in run.turns:
            assert 0 <= len(output.em_emotion_tags) <= 2
            assert all(
                t.emotion in PANAS_ITEMS and 1 <= t.intensity <= 7 for t in output.em_emotion_tags
            )
            assert set(output.em_binary_om_assessment.values()) <= {"yes", "no"}
            assert set(output.em_pairwise_selections.values()) <= {"A", "B"}
        predicted = run.post_conversation.predicted_post_panas
        assert set(predicted.items) == set(PANAS_ITEMS)
        assert predicted.total_positive == sum(predicted.items[n] for n in PANAS_POSITIVE)
        assert predicted.total_negative == sum(predicted.items[n] for n in PANAS_NEGATIVE)
        wide = run.post_conversation.predicted_conversation_wide
        assert set(wide.q1_looking_for) <= {"vent", "calm"}
        assert wide.q2_emotion_clarity in {"clear", "implied"}


def test_every_baseline_run_is_scored_and_round_trips():
    runs = all_baseline_runs(conversations(), seed=1)
    assert len(runs) == 4 * 3
    by_id = {c.conversation_id: c for c in conversations()}
    for run in runs:
        text = dumps_run_output(run)
        assert dumps_run_output(loads_run_output(text)) == text
        scores = score_conversation(by_id[run.conversation_id], run)
        assert 0.0 <= scores.composite_score <= 100.0
        assert run.parse_failures == {} and run.api_cost == 0.0
