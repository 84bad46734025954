"""Judge-vs-participant agreement on the original and the edited replies, against tables
worked out by hand: kappa, accuracy, both directions of disagreement, per category."""

import numpy as np
import pandas as pd
import pytest

from attunebench.records import BinaryJudgement, Conversation, Turn, TurnAnnotations
from attunebench.run_output import RunOutput, TurnOutput
from attunebench.stats import judge_reply_answers, participant_reply_answers
from attunebench.stats.reply_agreement import reply_agreement

CATEGORIES = {"q0": "perceiving", "q1": "using"}


def rows(rater, answers, reply="original"):
    return [
        {
            "conversation_id": f"c{i // 2}",
            "turn_number": 1,
            "question_id": f"q{i % 2}",
            "target": reply,
            "rater": rater,
            "answer": answer,
        }
        for i, answer in enumerate(answers)
    ]


def agreement(answers):
    return reply_agreement(
        pd.DataFrame(answers),
        CATEGORIES,
        n_resamples=400,
        rng=np.random.default_rng(1),
        confidence=0.95,
    )


def test_judge_against_participant_by_hand():
    participant = ["yes", "yes", "no", "no", "no", "yes"]
    judge = ["yes", "no", "yes", "yes", "no", "yes"]
    found = {
        (a.category, a.rater_b): a
        for a in agreement(rows("participant", participant) + rows("j", judge))
    }
    pooled = found[("all", "j")]
    # yy 2, yn 1 (participant yes, judge no), ny 2 (participant no, judge yes), nn 1.
    # po = 3/6; participant yes 1/2, judge yes 4/6; pe = 1/2 * 4/6 + 1/2 * 2/6 = 1/2 -> kappa 0.
    assert (pooled.reply, pooled.rater_a, pooled.n_items, pooled.n_conversations) == (
        "original",
        "participant",
        6,
        3,
    )
    assert pooled.accuracy == pytest.approx(0.5)
    assert pooled.kappa == pytest.approx(0.0)
    assert pooled.b_yes_where_a_no == pytest.approx(2 / 3)  # judge yes where participant no
    assert pooled.b_no_where_a_yes == pytest.approx(1 / 3)  # judge no where participant yes
    assert pooled.kappa_ci_low <= pooled.kappa <= pooled.kappa_ci_high
    # q0 (perceiving) only: participant yes, no, no; judge yes, yes, no -> yy 1, ny 1, nn 1;
    # po 2/3, pe = 1/3 * 2/3 + 2/3 * 1/3 = 4/9; kappa = (2/9) / (5/9) = 0.4.
    perceiving = found[("perceiving", "j")]
    assert perceiving.n_items == 3 and perceiving.kappa == pytest.approx(0.4)
    assert found[("using", "j")].n_items == 3


def test_judge_pairs_sit_beside_and_na_is_dropped():
    answers = (
        rows("participant", ["yes", "no", "na", "no"])
        + rows("a", ["yes", "no", "yes", "no"])
        + rows("b", ["yes", "yes", "yes", "no"], reply="human_edited")
        + rows("participant", ["yes", "no", "no", "no"], reply="human_edited")
    )
    found = agreement(answers)
    keys = [(a.reply, a.category, a.rater_a, a.rater_b) for a in found if a.category == "all"]
    assert keys == [
        ("original", "all", "participant", "a"),
        ("human_edited", "all", "participant", "b"),
    ]
    original = found[0]
    assert original.n_items == 3 and original.accuracy == 1.0  # the "na" item is dropped
    edited = next(a for a in found if a.reply == "human_edited" and a.category == "all")
    # participant yes, no, no, no vs judge b yes, yes, yes, no: yy 1, ny 2, nn 1.
    assert edited.b_yes_where_a_no == pytest.approx(2 / 3) and edited.b_no_where_a_yes == 0.0
    judges = pd.DataFrame(rows("a", ["yes", "no"]) + rows("b", ["yes", "yes"]))
    pair = [a for a in agreement(judges) if a.category == "all"]
    assert [(a.rater_a, a.rater_b, a.n_items, a.accuracy) for a in pair] == [("a", "b", 2, 0.5)]


def test_answer_rows_from_records_and_runs():
    edited = TurnAnnotations(
        binary_judgements=(
            BinaryJudgement("q0", observed="no", preferred="yes"),
            BinaryJudgement("q1", observed="yes", preferred=None),
            BinaryJudgement("q2", observed="na", preferred="na"),  # not asked
        ),
        human_edited="better reply",
    )
    plain = TurnAnnotations(binary_judgements=(BinaryJudgement("q0", observed="yes"),))
    conversation = Conversation(
        "c1",
        turns=(Turn(1, "hi", "hello", annotations=edited), Turn(2, "so", "ok", annotations=plain)),
    )
    found = participant_reply_answers([conversation])
    got = sorted(
        zip(
            found["turn_number"],
            found["question_id"],
            found["target"],
            found["answer"],
            strict=True,
        )
    )
    assert got == [
        (1, "q0", "human_edited", "yes"),  # what they wanted
        (1, "q0", "original", "no"),  # what they saw
        (1, "q1", "human_edited", "yes"),  # preferred blank -> observed
        (1, "q1", "original", "yes"),
        (2, "q0", "original", "yes"),  # no edit at turn 2: the original only
    ]
    judged = {"judge": {"original": {"q0": "yes"}, "human_edited": {"q0": "no"}}}
    runs = [
        RunOutput(
            "c1", em_model=model, turns=(TurnOutput(1, judge_reply_assessment_by_model=judged),)
        )
        for model in ("m1", "m2")
    ]
    answers = judge_reply_answers(runs)
    assert len(answers) == 2  # the same judge answers in both units count once
    assert set(answers["target"]) == {"original", "human_edited"}
