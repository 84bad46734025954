"""Per model and mode: means with standard errors, pooled confusion, parse-failure rates."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from attunebench.scoring.behaviour import CONFUSION_KEYS, ConfusionCounts
from attunebench.scoring.conversation import METRIC_NAMES, ConversationScores


@dataclass(frozen=True)
class MetricSummary:
    mean: float | None
    standard_error: float | None  # sample sd / sqrt(n); None when n < 2
    n: int


def summarise(values: Iterable[float | None]) -> MetricSummary:
    """Edge rule: mean and standard error = sample sd / sqrt(n) over conversations (the
    defined values only); the standard error is None when fewer than 2 values."""
    defined = [value for value in values if value is not None]
    if not defined:
        return MetricSummary(mean=None, standard_error=None, n=0)
    mean = statistics.fmean(defined)
    error = statistics.stdev(defined) / math.sqrt(len(defined)) if len(defined) >= 2 else None
    return MetricSummary(mean=mean, standard_error=error, n=len(defined))


@dataclass(frozen=True)
class AggregateScores:
    em_model: str | None
    mode: str | None
    n_conversations: int
    n_turns_scored: int
    metrics: dict[str, MetricSummary]
    confusion: dict[str, ConfusionCounts]  # pooled over every turn of every conversation
    # per call type: {"calls": n, "failures": n, "rate": failures / calls or None}
    parse_failures: dict[str, dict[str, float | int | None]]


def aggregate(scores: Iterable[ConversationScores]) -> list[AggregateScores]:
    """Section 4 "mean over conversations per model and mode", with standard errors, pooled
    confusion counts and the section 5 parse-failure rate per call type."""
    groups: dict[tuple[str | None, str | None], list[ConversationScores]] = {}
    for score in scores:
        groups.setdefault((score.em_model, score.mode), []).append(score)
    return [
        _aggregate_group(model, mode, members)
        for (model, mode), members in sorted(
            groups.items(), key=lambda item: (item[0][0] or "", item[0][1] or "")
        )
    ]


def _aggregate_group(
    model: str | None, mode: str | None, members: list[ConversationScores]
) -> AggregateScores:
    confusion: dict[str, ConfusionCounts] = {}
    failures: dict[str, dict[str, int]] = {}
    for member in members:
        for key, counts in member.confusion.items():
            confusion[key] = confusion.get(key, ConfusionCounts()) + counts
        for call_type, calls in member.parse_failures.items():
            total = failures.setdefault(call_type, {"calls": 0, "failures": 0})
            total["calls"] += calls.get("calls", 0)
            total["failures"] += calls.get("failures", 0)
    return AggregateScores(
        em_model=model,
        mode=mode,
        n_conversations=len(members),
        n_turns_scored=sum(member.n_turns_scored for member in members),
        metrics={
            name: summarise(getattr(member, name) for member in members) for name in METRIC_NAMES
        },
        confusion={key: confusion[key] for key in CONFUSION_KEYS if key in confusion},
        parse_failures={
            call_type: {
                **counts,
                "rate": counts["failures"] / counts["calls"] if counts["calls"] else None,
            }
            for call_type, counts in sorted(failures.items())
        },
    )
