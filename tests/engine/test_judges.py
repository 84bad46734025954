"""Several judges: their scores are averaged per dimension, their yes/no answers decided by
majority (a tie is "na"); a judge that failed is left out of the majority (a turn missing a
judge's scores has no combined score: ``test_judged_turn_needs_every_judge.py``)."""

from attunebench.judging import combine_scores, majority
from attunebench.run_output import DraftJudgeScores


def test_scores_are_averaged_over_the_judges():
    combined = combine_scores(
        {
            "a": DraftJudgeScores(7, 6, 5, 4),
            "b": DraftJudgeScores(5, 6, 3, None),
            "c": DraftJudgeScores(3, 3, 1, 2),
        },
        ("a", "b", "c"),
    )
    assert combined == DraftJudgeScores(5.0, 5.0, 3.0, 3.0)
    assert combine_scores({}, ()) is None


def test_yes_no_by_majority_and_ties_are_na():
    verdicts = majority(
        {
            "a": {"B1": "yes", "B2": "no", "B3": "yes", "B4": "na"},
            "b": {"B1": "yes", "B2": "yes", "B3": "no", "B4": "na"},
            "c": {"B1": "no", "B2": "no", "B3": "na"},
        }
    )
    assert verdicts == {"B1": "yes", "B2": "no", "B3": "na", "B4": "na"}
    assert majority({}) is None
