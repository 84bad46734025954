"""Several judges, one verdict (section 3, call 2): scores averaged, yes/no by majority.

Scores: a turn has a combined score only when every configured judge answered. The reference
is silent on a judge that fails; averaging whichever judges answered would let a failed call
replace a harsh judge by a lenient one on some turns and move a model's judged quality for
that reason alone, so such a turn's judged score is undefined (left out of the axis mean) and
counted by the runner. Yes/no: a judge whose call failed is left out of the majority. A yes/no
tie (two judges, one each way) has no majority and is recorded as "na", which the scorer, like
a reader, treats as "no verdict".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping

from attunebench.run_output import AnswerMap, DraftJudgeScores
from attunebench.schemas import JUDGE_DIMENSIONS


def judge_scores(answer: Mapping[str, object]) -> DraftJudgeScores:
    return DraftJudgeScores(**{name: answer.get(name) for name in JUDGE_DIMENSIONS})  # type: ignore[arg-type]  # a judge's answer is checked against its schema before this


def combine_scores(
    by_model: Mapping[str, DraftJudgeScores], judges: Collection[str]
) -> DraftJudgeScores | None:
    """The judges' mean per dimension, or None unless every one of ``judges`` (the configured
    judges) answered: a partial panel is a different panel, not the same one with less data."""
    if not by_model or not all(judge in by_model for judge in judges):
        return None
    means: dict[str, float | None] = {}
    for name in JUDGE_DIMENSIONS:
        values = [getattr(s, name) for s in by_model.values() if getattr(s, name) is not None]
        means[name] = sum(values) / len(values) if values else None
    return DraftJudgeScores(**means)  # type: ignore[arg-type]  # the means are floats or None, as the fields are


def majority(by_model: Mapping[str, Mapping[str, str]]) -> AnswerMap | None:
    if not by_model:
        return None
    question_ids = dict.fromkeys(qid for answers in by_model.values() for qid in answers)
    verdicts: AnswerMap = {}
    for qid in question_ids:
        votes = Counter(
            answers[qid] for answers in by_model.values() if answers.get(qid) in ("yes", "no")
        )
        if votes["yes"] == votes["no"]:
            verdicts[qid] = "na"
        else:
            verdicts[qid] = "yes" if votes["yes"] > votes["no"] else "no"
    return verdicts
