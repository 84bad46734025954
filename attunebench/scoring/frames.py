"""Scores as tidy pandas frames, one row per turn or per conversation (ready for Parquet)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from attunebench.scoring.behaviour import CONFUSION_KEYS, ConfusionCounts
from attunebench.scoring.conversation import METRIC_NAMES, ConversationScores
from attunebench.scoring.turn import _TURN_METRICS


def _confusion_columns(
    confusion: Mapping[str, ConfusionCounts], with_rates: bool
) -> dict[str, Any]:
    columns: dict[str, Any] = {}
    for key in CONFUSION_KEYS:
        counts = confusion.get(key)
        values = counts.to_dict() if counts else {}
        names = ("tp", "tn", "fp", "fn") + (
            ("precision", "recall", "f1", "mcc") if with_rates else ()
        )
        for name in names:
            columns[f"{key}_{name}"] = values.get(name)
    return columns


_ID_COLUMNS = ("conversation_id", "em_model", "mode")
_TURN_FRAME_COLUMNS = (
    _ID_COLUMNS
    + ("turn_number",)
    + _TURN_METRICS
    + ("n_pairwise",)
    + tuple(f"{key}_{name}" for key in CONFUSION_KEYS for name in ("tp", "tn", "fp", "fn"))
)


def per_turn_frame(conversation_scores: Iterable[ConversationScores]) -> pd.DataFrame:
    """One row per scored turn, flat columns (tidy; ready for Parquet). Undefined = NaN."""
    rows = [
        {
            "conversation_id": scores.conversation_id,
            "em_model": scores.em_model,
            "mode": scores.mode,
            "turn_number": turn.turn_number,
            **{name: getattr(turn, name) for name in _TURN_METRICS},
            "n_pairwise": turn.n_pairwise,
            **_confusion_columns(turn.confusion, with_rates=False),
        }
        for scores in conversation_scores
        for turn in scores.turns
    ]
    frame = pd.DataFrame(rows, columns=list(_TURN_FRAME_COLUMNS))
    frame = frame.astype({name: "float64" for name in _TURN_METRICS})
    return frame.astype({name: "Int64" for name in _count_columns(frame.columns)})


def _count_columns(columns: Iterable[str]) -> list[str]:
    # Nullable integers: the HP-worded counts are missing when the run had no HP review.
    return [c for c in columns if c.endswith(("_tp", "_tn", "_fp", "_fn"))]


def per_conversation_frame(conversation_scores: Iterable[ConversationScores]) -> pd.DataFrame:
    """One row per (conversation, model, mode), flat columns (tidy; ready for Parquet).

    Metric columns are float64 (undefined = NaN); confusion counts and rates are flattened
    as ``<om|human|om_hp|human_hp>_<tp|...|mcc>``; parse failures as
    ``parse_<call type>_calls`` / ``parse_<call type>_failures``.
    """
    rows = []
    call_types: set[str] = set()
    for scores in conversation_scores:
        row = {
            "conversation_id": scores.conversation_id,
            "em_model": scores.em_model,
            "mode": scores.mode,
            "n_turns": scores.n_turns,
            "n_turns_scored": scores.n_turns_scored,
            "panas_strategy": scores.panas_strategy,
            **scores.metric_values(),
            "predicted_positive_total": scores.predicted_positive_total,
            "predicted_negative_total": scores.predicted_negative_total,
            **_confusion_columns(scores.confusion, with_rates=True),
        }
        for call_type, counts in scores.parse_failures.items():
            call_types.add(call_type)
            row[f"parse_{call_type}_calls"] = counts.get("calls", 0)
            row[f"parse_{call_type}_failures"] = counts.get("failures", 0)
        rows.append(row)
    float_columns = METRIC_NAMES + ("predicted_positive_total", "predicted_negative_total")
    columns = (
        list(_ID_COLUMNS)
        + ["n_turns", "n_turns_scored", "panas_strategy"]
        + list(float_columns)
        + list(_confusion_columns({}, with_rates=True))
        + [f"parse_{c}_{kind}" for c in sorted(call_types) for kind in ("calls", "failures")]
    )
    frame = pd.DataFrame(rows, columns=columns)
    rate_columns = [c for c in columns if c.endswith(("_precision", "_recall", "_f1", "_mcc"))]
    frame = frame.astype({name: "float64" for name in (*float_columns, *rate_columns)})
    frame = frame.astype({name: "Int64" for name in _count_columns(columns)})
    # A call type absent from one run means zero calls there, not "unknown".
    parse_columns = [c for c in columns if c.startswith("parse_")]
    frame[parse_columns] = frame[parse_columns].fillna(0).astype("int64")
    return frame
