"""The monitoring page's sections: each table with its charts (inline SVG) and a note."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from annotations.qa import charts
from annotations.qa.monitoring import FUNNEL_STAGES, Table


def _column(table: Table, name: str) -> list:
    index = table.columns.index(name)
    return [row[index] for row in table.rows]


def _funnel(table: Table) -> str:
    shown = [s for s in FUNNEL_STAGES if s != "consented"]  # consented tracks started closely
    return charts.lines(
        "Conversations by day of start",
        _column(table, "day"),
        {s: _column(table, s) for s in shown},
    )


def _funnel_totals(table: Table) -> str:
    totals = [sum(_column(table, stage)) for stage in FUNNEL_STAGES]
    return charts.bars("Funnel, all days", list(FUNNEL_STAGES), {"conversations": totals})


def _models(table: Table) -> str:
    return charts.bars(
        "Conversations per model",
        _column(table, "model"),
        {"conversations": _column(table, "conversations")},
    )


def _turns(table: Table) -> str:
    labels = [str(n) for n in _column(table, "turns")]
    return charts.columns(
        "Turns per conversation",
        labels,
        _column(table, "conversations"),
        x_title="turns in the conversation",
    )


def _timings(table: Table) -> str:
    medians = {
        "per turn": [v or 0 for v in _column(table, "median_turn_seconds")],
        "per annotation": [v or 0 for v in _column(table, "median_annotation_seconds")],
    }
    return charts.bars(
        "Median seconds per turn and per annotation",
        _column(table, "model"),
        medians,
        fmt=lambda v: f"{v:.1f} s",
    )


def _flags(table: Table) -> str:
    labels, models = sorted(set(_column(table, "label"))), sorted(set(_column(table, "model")))
    rates = {(row[1], row[2]): row[5] or 0 for row in table.rows}
    series = {model: [rates.get((label, model), 0) for label in labels] for model in models}
    top = max(0.05, charts.nice_ceiling(max(rates.values(), default=0)))
    return charts.bars(
        "Share of checked conversations flagged", labels, series, fmt=charts.percent, maximum=top
    )


def _withdrawals(table: Table) -> str:
    return charts.columns(
        "Withdrawals by day", _column(table, "day"), _column(table, "withdrawn"), x_title="day"
    )


def _refused_starts(table: Table) -> str:
    reasons = [c for c in table.columns if c not in ("day", "total")]
    return charts.lines(
        "Starts refused by day", _column(table, "day"), {r: _column(table, r) for r in reasons}
    )


@dataclass(frozen=True)
class Section:
    table: Table
    charts: list[str]  # SVG, every label escaped by charts.py
    note: str
    empty: str


_SECTIONS: tuple[tuple[str, tuple[Callable[[Table], str], ...], str, str], ...] = (
    (
        "funnel",
        (_funnel, _funnel_totals),
        "By the day a conversation started. Started = consented conversations plus arrivals who "
        "never consented; chatting = reached the chat; completed = finished (also when excluded later).",
        "No conversations yet.",
    ),
    (
        "places",
        (),
        "A place is held by a consented participant still in the study; a Prolific submission "
        "returned, timed out or rejected, or a conversation left idle, frees it (abandoned "
        "above). Synced from Prolific: docs/prolific.md.",
        "",
    ),
    (
        "quotas",
        (),
        "Per stratum of the study's quotas (profile traits): places held by participants who "
        "submitted the profile, freed, and remaining (at most: places the stratum may still "
        "take; at least: places still kept for it). docs/prolific.md, Quotas.",
        "This study has no quotas.",
    ),
    ("models", (_models,), "How evenly the model pool is assigned.", "No conversations yet."),
    ("turns", (_turns,), "", "No conversations yet."),
    (
        "timings",
        (_timings,),
        "Per turn: from the participant's message to the annotation's submission. "
        "Per annotation: from opening to submitting it.",
        "No timed turns yet.",
    ),
    (
        "flags",
        (_flags,),
        "Share of the conversations the flag computation has checked that carry a flag of the "
        "type (any status).",
        "No flags.",
    ),
    ("withdrawals", (_withdrawals,), "", "No withdrawals."),
    (
        "refused_starts",
        (_refused_starts,),
        "Start links refused: address_limit = one address over its starts per minute; "
        "study_budget = the study over its starts per minute from all addresses; "
        "malformed_id = an id Prolific cannot have written; repeated_id = a PROLIFIC_PID that "
        "already started and proved nothing; study_full. A bot shows here. Kept 30 days.",
        "No refused starts.",
    ),
)


def monitoring_sections(tables: dict[str, Table]) -> list[Section]:
    return [
        Section(
            tables[name],
            [draw(tables[name]) for draw in drawers] if tables[name].rows else [],
            note,
            empty,
        )
        for name, drawers, note, empty in _SECTIONS
    ]
