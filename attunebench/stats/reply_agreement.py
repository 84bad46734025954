"""Judge-vs-participant agreement: do the judges see in a reply what the participant saw?

The participant answered the behaviour questions in the first person about the reply they got
(``observedBehavior``: did the model do it) and said what it should have done
(``preferredBehavior``); their edited reply is their idea of the right one. In a run with
judges, each judge answers the same questions, in the third-person wording, about the original
reply and about the edited reply (``judge_reply_assessment_by_model`` of the run output). So:

- on the **original** reply the participant's answer is what they observed;
- on the **edited** reply it is what they wanted (preferred, falling back to observed when
  they left it blank: the scorer's human ground truth).

Only the questions the participant was asked (section 3) and only yes/no answers count. Per
judged reply and per question category (and all categories together) every judge is compared
with the participant, and every two judges with each other: Cohen's kappa with a BCa bootstrap
interval over conversations, accuracy (raw agreement), and the two directions of disagreement.
A judge's answers repeat in every unit of a run (the same request, cached): rows are
deduplicated per (item, rater).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations

import numpy as np
import pandas as pd

from attunebench.records import Conversation
from attunebench.run_output import JUDGED_REPLIES, RunOutput
from attunebench.scoring import human_ground_truth, is_applicable
from attunebench.stats.agreement import (
    ANSWER_COLUMNS,
    ITEM_COLUMNS,
    PARTICIPANT,
    conversation_tables,
    kappa_interval,
)
from attunebench.stats.results import ReplyAgreement, number

ORIGINAL, HUMAN_EDITED = JUDGED_REPLIES
ALL_CATEGORIES = "all"


def _answer(value: object) -> str | None:
    return value.strip().lower() if isinstance(value, str) else None


def participant_reply_answers(conversations: Iterable[Conversation]) -> pd.DataFrame:
    """The participant's answers as agreement rows: ``observedBehavior`` about the original
    reply; the human ground truth about their edited reply (only turns with an edit)."""
    rows = []
    for conversation in conversations:
        for turn in conversation.turns:
            edited = bool(turn.annotations.human_edited)
            for judgement in turn.annotations.binary_judgements:
                if not is_applicable(judgement):
                    continue
                item = (conversation.conversation_id, turn.turn_number, judgement.question_id)
                observed = _answer(judgement.observed)
                if observed in ("yes", "no"):
                    rows.append((*item, ORIGINAL, PARTICIPANT, observed))
                wanted = human_ground_truth(judgement)
                if edited and wanted in ("yes", "no"):
                    rows.append((*item, HUMAN_EDITED, PARTICIPANT, wanted))
    return pd.DataFrame(rows, columns=list(ANSWER_COLUMNS))


def judge_reply_answers(runs: Iterable[RunOutput]) -> pd.DataFrame:
    """Each judge's answers about the original and the edited replies, as agreement rows."""
    rows = [
        (run.conversation_id, turn.turn_number, question_id, reply, judge, answer)
        for run in runs
        for turn in run.turns
        for judge, replies in (turn.judge_reply_assessment_by_model or {}).items()
        for reply, answers in replies.items()
        for question_id, answer in answers.items()
    ]
    return pd.DataFrame(rows, columns=list(ANSWER_COLUMNS)).drop_duplicates(
        ITEM_COLUMNS + ["rater"]
    )


def reply_agreement(
    answers: pd.DataFrame,
    categories: Mapping[str, str],
    *,
    n_resamples: int,
    rng: np.random.Generator,
    confidence: float,
) -> tuple[ReplyAgreement, ...]:
    """Per judged reply, per category (``"all"`` first): every judge against the participant,
    then every two judges. ``categories`` maps a question id to its category; ids it lacks
    count only under ``"all"``. Empty comparisons are left out."""
    clean = answers.assign(
        answer=answers["answer"].astype("string").str.strip().str.lower(),
        rater=answers["rater"].astype(str),
        conversation_id=answers["conversation_id"].astype(str),
    )
    clean = clean[clean["answer"].isin(["yes", "no"])].drop_duplicates(ITEM_COLUMNS + ["rater"])
    clean = clean.assign(category=clean["question_id"].map(dict(categories)))
    judges = sorted(r for r in clean["rater"].unique() if r != PARTICIPANT)
    pairs = [(PARTICIPANT, judge) for judge in judges] + list(combinations(judges, 2))
    ordered_categories = [ALL_CATEGORIES, *sorted(set(categories.values()))]
    results = []
    for reply in JUDGED_REPLIES:
        of_reply = clean[clean["target"] == reply]
        for category in ordered_categories:
            subset = (
                of_reply
                if category == ALL_CATEGORIES
                else of_reply[of_reply["category"] == category]
            )
            for rater_a, rater_b in pairs:
                merged = subset[subset["rater"] == rater_a].merge(
                    subset[subset["rater"] == rater_b], on=ITEM_COLUMNS, suffixes=("_a", "_b")
                )
                if merged.empty:
                    continue
                tables, conversations = conversation_tables(merged)
                yy, yn, ny, nn = tables.sum(axis=0)
                kappa, low, high = kappa_interval(
                    tables, n_resamples=n_resamples, rng=rng, confidence=confidence
                )
                n_items = int(yy + yn + ny + nn)
                results.append(
                    ReplyAgreement(
                        reply=reply,
                        category=category,
                        rater_a=rater_a,
                        rater_b=rater_b,
                        n_items=n_items,
                        n_conversations=len(conversations),
                        accuracy=number((yy + nn) / n_items),
                        kappa=kappa,
                        kappa_ci_low=low,
                        kappa_ci_high=high,
                        b_yes_where_a_no=number(ny / (ny + nn)) if ny + nn else None,
                        b_no_where_a_yes=number(yn / (yy + yn)) if yy + yn else None,
                    )
                )
    return tuple(results)
