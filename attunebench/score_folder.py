"""``score``: run outputs (ours or any tool's) + the data folder -> scores.json and Parquet.

Every ``*.json`` under the runs folder that looks like a run output (an object with
``conversationId`` and ``turns``) is scored against its conversation with the section 4
scorer; anything else there (our scores.json, notes) is passed over. The model-free baselines
are scored beside the models on the same conversations, in the runs' main mode (the report's
leaderboard mode), so every table shows chance level.

Outputs: ``scores.json`` = {"scoring_options": {...}, "conversations": [...], "aggregates":
[...]} with the section 6 metric names (parse-failure rates per call type inside every entry),
and the tidy tables ``per_turn.parquet`` and ``per_conversation.parquet``.

The default scores reproduce the reference. A named variant (today ``asked_only``: behaviour
accuracy over the asked questions only) is scored from the same runs in the same pass and
written beside them under ``"variants"``, never instead of them.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from attunebench.baselines import all_baseline_runs
from attunebench.files import write_atomically
from attunebench.records import Conversation
from attunebench.release import SourcedConversation
from attunebench.run_output import RunOutput, call_counts, run_output_from_dict
from attunebench.scoring import (
    AggregateScores,
    ConversationScores,
    ScoringOptions,
    aggregate,
    aggregate_scores_to_dict,
    per_conversation_frame,
    per_turn_frame,
    score_conversation,
    scores_to_json,
)
from attunebench.tables import Cell

SCORES_FILE = "scores.json"
PER_TURN_FILE = "per_turn.parquet"
PER_CONVERSATION_FILE = "per_conversation.parquet"


ASKED_ONLY = "asked_only"
# Per-conversation values a variant records beside the default (what the variant changes).
VARIANT_METRICS: tuple[str, ...] = (
    "avg_binary_om_accuracy",
    "avg_binary_human_accuracy",
    "avg_binary_om_accuracy_hp",
    "avg_binary_human_accuracy_hp",
    "perspective_gap",
    "evaluation_quality",
    "behaviour_classification",
    "preference_prediction",
    "composite_score",
)


@dataclass
class ScoreVariant:
    """The same runs scored under a named option (reported beside the default)."""

    options: ScoringOptions
    conversations: list[ConversationScores] = field(default_factory=list)
    aggregates: list[AggregateScores] = field(default_factory=list)


@dataclass
class ScoreResult:
    conversations: list[ConversationScores] = field(default_factory=list)
    aggregates: list[AggregateScores] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "<file>: why", for the summary
    options: ScoringOptions = field(default_factory=ScoringOptions)
    variants: dict[str, ScoreVariant] = field(default_factory=dict)


def main_mode(modes: Iterable[str | None]) -> str:
    """The mode a report leads with: ``default`` when it was run, else the first mode run.

    The baselines are scored in this mode: the statistics show baselines only in the
    leaderboard's mode, so scoring them anywhere else would hide them.
    """
    seen = [mode for mode in modes if mode]
    return "default" if "default" in seen or not seen else seen[0]


def read_runs(runs: Path) -> tuple[list[tuple[str, RunOutput]], list[str]]:
    """(file name, run output) for every run-output file under ``runs``; and what was not."""
    found: list[tuple[str, RunOutput]] = []
    skipped: list[str] = []
    for path in sorted(runs.rglob("*.json")):
        if path.name.startswith(".tmp-"):
            continue  # a write in progress (or a killed one)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            skipped.append(f"{path.name}: not JSON ({exc})")
            continue
        if isinstance(data, dict) and "conversationId" in data and "turns" in data:
            found.append((path.name, run_output_from_dict(data)))
    return found, skipped


def score_runs(
    conversations: Sequence[SourcedConversation],
    runs: Sequence[tuple[str, RunOutput]],
    *,
    compat: bool = False,
    asked_only: bool = False,
    baseline_seed: int = 0,
    baseline_mode: str | None = None,
) -> ScoreResult:
    """Score each run against its conversation, add the baselines, aggregate per model and mode.

    The baselines run on the conversations the runs cover (all of them when there are none),
    in ``baseline_mode``: by default the ``main_mode`` of the runs, the report's main mode.
    ``runs`` is read once (it may be a generator). The default scores always follow the
    reference; ``asked_only`` adds that variant beside them (``result.variants``).
    """
    by_id = {item.conversation.conversation_id: item.conversation for item in conversations}
    options = ScoringOptions(compat=compat)
    result = ScoreResult(options=options)
    if asked_only:
        result.variants[ASKED_ONLY] = ScoreVariant(replace(options, asked_only=True))

    def score(conversation: Conversation, run: RunOutput) -> None:
        result.conversations.append(score_conversation(conversation, run, options))
        for variant in result.variants.values():
            variant.conversations.append(score_conversation(conversation, run, variant.options))

    seen: set[tuple[str | None, str | None, str | None]] = set()
    covered: dict[str, None] = {}
    modes: dict[str | None, None] = {}  # in the order first seen
    for name, run in runs:
        key = (run.conversation_id, run.em_model, run.mode)
        conversation = by_id.get(run.conversation_id or "")
        if conversation is None:
            result.skipped.append(
                f"{name}: conversation {run.conversation_id!r} is not in the data"
            )
        elif key in seen:
            result.skipped.append(f"{name}: a second run of {key}")
        else:
            seen.add(key)
            covered.setdefault(conversation.conversation_id)
            modes.setdefault(run.mode)
            score(conversation, run)
    baseline_set = [by_id[cid] for cid in covered] or list(by_id.values())
    mode = baseline_mode or main_mode(modes)
    for run in all_baseline_runs(baseline_set, seed=baseline_seed, mode=mode):
        score(by_id[run.conversation_id or ""], run)  # a baseline run names its conversation
    result.aggregates = aggregate(result.conversations)
    for variant in result.variants.values():
        variant.aggregates = aggregate(variant.conversations)
    return result


def variant_to_json(variant: ScoreVariant) -> dict[str, Any]:
    """A variant's options, its aggregates and, per conversation, the values it changes."""
    return {
        "scoring_options": variant.options.as_dict(),
        "conversations": [
            {
                "conversationId": scores.conversation_id,
                "em_model": scores.em_model,
                "mode": scores.mode,
                **{name: getattr(scores, name) for name in VARIANT_METRICS},
            }
            for scores in variant.conversations
        ],
        "aggregates": [aggregate_scores_to_dict(item) for item in variant.aggregates],
    }


def write_scores(result: ScoreResult, out: Path) -> list[Path]:
    payload: dict[str, Any] = {"scoring_options": result.options.as_dict()}
    payload.update(scores_to_json(result.conversations, result.aggregates))
    if result.variants:
        payload["variants"] = {
            name: variant_to_json(variant) for name, variant in result.variants.items()
        }
    text = json.dumps(payload, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
    paths = [out / SCORES_FILE, out / PER_TURN_FILE, out / PER_CONVERSATION_FILE]
    write_atomically(paths[0], text.encode("utf-8"))
    for path, frame in (
        (paths[1], per_turn_frame(result.conversations)),
        (paths[2], per_conversation_frame(result.conversations)),
    ):
        buffer = io.BytesIO()
        frame.to_parquet(buffer, index=False)
        write_atomically(path, buffer.getvalue())
    return paths


SUMMARY_HEADERS = (
    "model",
    "mode",
    "n",
    "composite",
    "se",
    "emotion",
    "behaviour",
    "preference",
    "judged",
    "outcome",
    "failed answers",
)


def summary_rows(
    aggregates: Sequence[AggregateScores], variant: Sequence[AggregateScores] | None = None
) -> list[list[Cell]]:
    """One row per model and mode: composite +- SE, the axes, the parse-failure rate; with a
    variant, its composite in one more column beside the default's."""
    beside = {(item.em_model, item.mode): item for item in variant or ()}
    rows: list[list[Cell]] = []
    for item in aggregates:
        metrics = item.metrics
        calls, failures = call_counts(item.parse_failures)
        rows.append(
            [
                item.em_model,
                item.mode,
                item.n_conversations,
                metrics["composite_score"].mean,
                metrics["composite_score"].standard_error,
                metrics["emotion_recognition"].mean,
                metrics["behaviour_classification"].mean,
                metrics["preference_prediction"].mean,
                metrics["judged_response_quality"].mean,
                metrics["outcome_prediction"].mean,
                f"{failures}/{calls}" if calls else "-",
            ]
        )
        if variant is not None:
            other = beside.get((item.em_model, item.mode))
            rows[-1].append(other.metrics["composite_score"].mean if other else None)
    return rows
