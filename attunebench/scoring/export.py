"""Scores as plain JSON values (``scores.json``); undefined = null."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from attunebench.scoring.aggregation import AggregateScores
from attunebench.scoring.conversation import ConversationScores
from attunebench.scoring.turn import _TURN_METRICS, TurnScores


def turn_scores_to_dict(turn: TurnScores) -> dict[str, Any]:
    data: dict[str, Any] = {"turn_number": turn.turn_number}
    data.update({name: getattr(turn, name) for name in _TURN_METRICS})
    data["n_pairwise"] = turn.n_pairwise
    data["confusion"] = {key: counts.to_dict() for key, counts in turn.confusion.items()}
    return data


def conversation_scores_to_dict(scores: ConversationScores) -> dict[str, Any]:
    return {
        "conversationId": scores.conversation_id,
        "em_model": scores.em_model,
        "mode": scores.mode,
        "n_turns": scores.n_turns,
        "n_turns_scored": scores.n_turns_scored,
        **scores.metric_values(),
        "predicted_positive_total": scores.predicted_positive_total,
        "predicted_negative_total": scores.predicted_negative_total,
        "panas_strategy": scores.panas_strategy,
        "confusion": {key: counts.to_dict() for key, counts in scores.confusion.items()},
        "parse_failures": scores.parse_failures,
        "turns": [turn_scores_to_dict(turn) for turn in scores.turns],
    }


def aggregate_scores_to_dict(aggregate_scores: AggregateScores) -> dict[str, Any]:
    data: dict[str, Any] = {
        "em_model": aggregate_scores.em_model,
        "mode": aggregate_scores.mode,
        "n_conversations": aggregate_scores.n_conversations,
        "n_turns_scored": aggregate_scores.n_turns_scored,
    }
    for name, summary in aggregate_scores.metrics.items():
        data[name] = summary.mean
        data[f"{name}_se"] = summary.standard_error
        data[f"{name}_n"] = summary.n
    data["confusion"] = {
        key: counts.to_dict() for key, counts in aggregate_scores.confusion.items()
    }
    data["parse_failures"] = aggregate_scores.parse_failures
    return data


def scores_to_json(
    conversation_scores: Iterable[ConversationScores], aggregates: Iterable[AggregateScores]
) -> dict[str, Any]:
    """{"conversations": [...], "aggregates": [...]}: plain JSON values, undefined = null."""
    return {
        "conversations": [conversation_scores_to_dict(scores) for scores in conversation_scores],
        "aggregates": [aggregate_scores_to_dict(item) for item in aggregates],
    }
