"""Judge reliability: Cohen's kappa and percent agreement against hand-worked tables."""

import numpy as np
import pandas as pd
import pytest

from attunebench.records import (
    BinaryJudgement,
    Conversation,
    Turn,
    TurnAnnotations,
)
from attunebench.run_output import RunOutput, TurnOutput
from attunebench.stats import draft_judge_answers, participant_answers
from attunebench.stats.agreement import judge_agreement, kappa_from_tables


def test_kappa_worked_by_hand():
    # 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no: po = 35/50 = 0.7; A yes 0.5, B yes 0.6;
    # pe = 0.5 x 0.6 + 0.5 x 0.4 = 0.5; kappa = (0.7 - 0.5) / 0.5 = 0.4.
    assert kappa_from_tables(np.array([20, 5, 10, 15.0])) == pytest.approx(0.4)
    assert np.isnan(kappa_from_tables(np.array([7, 0, 0, 0.0])))  # no variation: undefined


def rows(rater, answers, target="human_edited"):
    return [
        {
            "conversation_id": f"c{i // 2}",
            "turn_number": 1,
            "question_id": f"q{i % 2}",
            "target": target,
            "rater": rater,
            "answer": answer,
        }
        for i, answer in enumerate(answers)
    ]


def test_judges_against_the_participant_and_each_other():
    truth = ["yes", "no", "yes", "yes", "no", "no", "yes", "no", "na", "no"]
    judge_a = ["yes", "no", "yes", "no", "no", "no", "yes", "no", "yes", "no"]
    judge_b = ["yes", "no", "yes", "yes", "no", "no", "yes", "no", "no", None]
    answers = pd.DataFrame(
        rows("participant", truth) + rows("judge-a", judge_a) + rows("judge-b", judge_b)
    )
    found = judge_agreement(answers, n_resamples=500, rng=np.random.default_rng(0), confidence=0.95)
    assert [(a.rater_a, a.rater_b) for a in found] == [
        ("participant", "judge-a"),
        ("participant", "judge-b"),
        ("judge-a", "judge-b"),
    ]
    participant_a, participant_b, a_b = found
    # participant vs judge-a: 9 yes/no items (the "na" is dropped), 8 agree; tables
    # yy 3, yn 1, ny 0, nn 5: po 8/9, A yes 4/9, B yes 3/9, pe = (12 + 30)/81 -> kappa 0.7627.
    assert participant_a.n_items == 9 and participant_a.percent_agreement == pytest.approx(8 / 9)
    assert participant_a.kappa == pytest.approx((8 / 9 - 42 / 81) / (1 - 42 / 81))
    assert participant_b.percent_agreement == pytest.approx(1.0) and participant_b.n_items == 8
    assert a_b.n_items == 9 and a_b.n_conversations == 5
    assert participant_a.kappa_ci_low <= participant_a.kappa <= participant_a.kappa_ci_high


def test_answer_rows_from_records_and_run_outputs():
    turn = Turn(
        1,
        "hi",
        "hello",
        annotations=TurnAnnotations(
            binary_judgements=(
                BinaryJudgement("q1", observed="no", preferred="yes"),
                BinaryJudgement("q2", observed="yes", preferred=None),
                BinaryJudgement("q3", observed="na", preferred="na"),
            ),
            human_edited="my better reply",
        ),
    )
    mine = participant_answers([Conversation("c1", turns=(turn,))])
    assert list(zip(mine["question_id"], mine["answer"], strict=True)) == [
        ("q1", "yes"),
        ("q2", "yes"),
    ]
    run = RunOutput(
        "c1",
        em_model="m",
        mode="default",
        turns=(
            TurnOutput(
                1, em_draft_binary_assessment_by_model={"j1": {"q1": "yes"}, "j2": {"q1": "no"}}
            ),
        ),
    )
    theirs = draft_judge_answers([run])
    assert set(theirs["rater"]) == {"j1", "j2"} and set(theirs["target"]) == {"m|default"}
