"""The runner asks exactly the behaviour questions the scorer scores (section 3's rule is
restated in calls.py so a run never imports pandas; this keeps the two in step)."""

import itertools

from attunebench.calls import applicable_question_ids
from attunebench.records import BinaryJudgement, Turn, TurnAnnotations
from attunebench.scoring import is_applicable

VALUES = ["yes", "no", "na", None, "YES", " Na "]


def test_runner_and_scorer_agree_on_every_answer_pair():
    judgements = [
        BinaryJudgement(f"B{index}", observed=observed, preferred=preferred)
        for index, (observed, preferred) in enumerate(itertools.product(VALUES, VALUES))
    ]
    turn = Turn(1, "hi", "hello", annotations=TurnAnnotations(binary_judgements=tuple(judgements)))
    assert applicable_question_ids(turn) == tuple(
        j.question_id for j in judgements if is_applicable(j)
    )
