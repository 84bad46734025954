"""Several judges, one verdict (section 3, call 2): scores averaged, yes/no by majority.

A judge whose call failed is left out of both. A yes/no tie (two judges, one each way) has no
majority and is recorded as "na", which the scorer, like a reader, treats as "no verdict".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from evaluation.benchmark.run_output import AnswerMap, DraftJudgeScores
from evaluation.benchmark.schemas import JUDGE_DIMENSIONS


def judge_scores(answer: Mapping[str, object]) -> DraftJudgeScores:
    return DraftJudgeScores(**{name: answer.get(name) for name in JUDGE_DIMENSIONS})  # type: ignore[arg-type]


def combine_scores(by_model: Mapping[str, DraftJudgeScores]) -> DraftJudgeScores | None:
    if not by_model:
        return None
    means: dict[str, float | None] = {}
    for name in JUDGE_DIMENSIONS:
        values = [getattr(s, name) for s in by_model.values() if getattr(s, name) is not None]
        means[name] = sum(values) / len(values) if values else None
    return DraftJudgeScores(**means)  # type: ignore[arg-type]


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
