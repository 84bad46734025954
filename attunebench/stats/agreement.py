"""Judge reliability: Cohen's kappa and percent agreement between raters' yes/no answers.

Input contract (one row per answer, tidy): ``conversation_id``, ``turn_number``,
``question_id``, ``target`` (which reply was judged: ``"human_edited"`` for the participant's
own edited reply, ``"<model>|<mode>"`` for a model's draft), ``rater`` (a judge model, or
``"participant"``), ``answer``. Only "yes"/"no" answers count; "na" and blanks are dropped, as
the scorer drops them. An item is (conversation, turn, question, target); two raters are
compared on the items both answered. ``build.participant_answers`` and
``build.draft_judge_answers`` produce such rows from records and run outputs.

Why kappa next to percent agreement: most behaviour answers are "no", so two raters agree
often by chance; kappa subtracts the agreement their marginals predict. Its interval is a BCa
bootstrap over conversations (a conversation's answers are not independent), with the
jackknife in closed form from the per-conversation 2x2 tables.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from attunebench.stats.resampling import Replicates, bca_interval, resample_counts
from attunebench.stats.results import Agreement, number

ANSWER_COLUMNS: tuple[str, ...] = (
    "conversation_id",
    "turn_number",
    "question_id",
    "target",
    "rater",
    "answer",
)
ITEM_COLUMNS: list[str] = ["conversation_id", "turn_number", "question_id", "target"]
PARTICIPANT = "participant"


def kappa_from_tables(tables: np.ndarray) -> np.ndarray:
    """Cohen's kappa of (..., 4) tables (yes/yes, yes/no, no/yes, no/no); NaN when the
    chance agreement is 1 (both raters gave one answer throughout: kappa is undefined)."""
    yy, yn, ny, nn = np.moveaxis(tables, -1, 0)
    total = yy + yn + ny + nn
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = (yy + nn) / total
        a_yes, b_yes = (yy + yn) / total, (yy + ny) / total
        chance = a_yes * b_yes + (1 - a_yes) * (1 - b_yes)
        kappa = (observed - chance) / (1 - chance)
    return np.where(np.isclose(chance, 1.0), np.nan, kappa)


def conversation_tables(merged: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per-conversation 2x2 tables of two raters' answers, and their conversation ids."""
    a_yes, b_yes = merged["answer_a"] == "yes", merged["answer_b"] == "yes"
    cells = pd.DataFrame(
        {
            "conversation_id": merged["conversation_id"],
            "yy": a_yes & b_yes,
            "yn": a_yes & ~b_yes,
            "ny": ~a_yes & b_yes,
            "nn": ~a_yes & ~b_yes,
        }
    )
    grouped = cells.groupby("conversation_id", sort=True)[["yy", "yn", "ny", "nn"]].sum()
    return grouped.to_numpy(dtype=np.float64), grouped.index.to_numpy()


def _pair_agreement(
    merged: pd.DataFrame,
    rater_a: str,
    rater_b: str,
    *,
    n_resamples: int,
    rng: np.random.Generator,
    confidence: float,
) -> Agreement:
    tables, conversations = conversation_tables(merged)
    total = tables.sum(axis=0)
    kappa, low, high = kappa_interval(
        tables, n_resamples=n_resamples, rng=rng, confidence=confidence
    )
    n_items = int(total.sum())
    return Agreement(
        rater_a=rater_a,
        rater_b=rater_b,
        n_items=n_items,
        n_conversations=len(conversations),
        percent_agreement=number((total[0] + total[3]) / n_items) if n_items else None,
        kappa=kappa,
        kappa_ci_low=low,
        kappa_ci_high=high,
    )


def kappa_interval(
    tables: np.ndarray, *, n_resamples: int, rng: np.random.Generator, confidence: float
) -> tuple[float | None, float | None, float | None]:
    """Cohen's kappa of per-conversation (n, 4) tables pooled, with its BCa bootstrap interval
    over conversations (the jackknife leaves one conversation's table out)."""
    total = tables.sum(axis=0)
    counts = resample_counts(len(tables), n_resamples, rng)
    replicates = Replicates(
        estimate=kappa_from_tables(total)[None],
        boot=kappa_from_tables(counts @ tables)[None],
        jackknife=kappa_from_tables(total - tables)[None],
    )
    low, high = bca_interval(replicates, confidence)
    return number(replicates.estimate[0]), number(low[0]), number(high[0])


def judge_agreement(
    answers: pd.DataFrame,
    *,
    n_resamples: int,
    rng: np.random.Generator,
    confidence: float,
    reference: str = PARTICIPANT,
) -> tuple[Agreement, ...]:
    """Every judge against the reference rater, then every two judges, on their shared items."""
    missing = [c for c in ANSWER_COLUMNS if c not in answers.columns]
    if missing:
        raise ValueError(f"judge answers lack columns: {', '.join(missing)}")
    clean = answers.assign(
        answer=answers["answer"].astype("string").str.strip().str.lower(),
        rater=answers["rater"].astype(str),
        conversation_id=answers["conversation_id"].astype(str),
    )
    clean = clean[clean["answer"].isin(["yes", "no"])].drop_duplicates(ITEM_COLUMNS + ["rater"])
    judges = sorted(r for r in clean["rater"].unique() if r != reference)
    raters = [reference, *judges] if reference in set(clean["rater"]) else judges
    results = []
    for rater_a, rater_b in combinations(raters, 2):
        merged = clean[clean["rater"] == rater_a].merge(
            clean[clean["rater"] == rater_b], on=ITEM_COLUMNS, suffixes=("_a", "_b")
        )
        if merged.empty:
            continue
        results.append(
            _pair_agreement(
                merged, rater_a, rater_b, n_resamples=n_resamples, rng=rng, confidence=confidence
            )
        )
    return tuple(results)
