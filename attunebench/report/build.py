"""Run outputs -> scores, statistics and the report folder: the one pipeline behind a report.

The evaluation app (``evaluation/services/report.py``) and the command line
(``attunebench report``) both call ``analyse`` then ``write_report_folder``, so the same run
outputs give the same report.json and report.html whichever built them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from attunebench import cli_arguments
from attunebench.instrument import Instrument
from attunebench.release import SourcedConversation
from attunebench.report.provenance import Provenance
from attunebench.report.reproducibility import Reproducibility
from attunebench.report.write import ReportFiles, write_report
from attunebench.run_output import RunOutput
from attunebench.score_folder import ScoreResult, main_mode, score_runs, write_scores
from attunebench.stats import (
    StatsConfig,
    compute_statistics,
    draft_judge_answers,
    judge_reply_answers,
    participant_answers,
    participant_reply_answers,
    score_frame,
)
from attunebench.stats.results import Statistics

# The statistics options a report may switch on (all off by default): which tests count.
STATISTICS_OPTIONS = cli_arguments.STATISTICS_OPTIONS

# Outputs are read more than once (scores, then the judges' answers); a run stored in a
# database streams them, so the caller gives a function that starts a fresh pass.
OutputSource = Callable[[], Iterable[tuple[str, RunOutput]]]


@dataclass(frozen=True)
class ReportOptions:
    seed: int = 0  # the statistics' and the random baseline's seed
    modes: Sequence[str] = ("default",)  # the modes run: the first report mode leads
    judged: bool = False  # judges ran: add their reliability and agreement with participants
    statistics_options: Mapping[str, bool] = field(default_factory=dict)

    def statistics(self) -> dict[str, bool]:
        return {name: bool(self.statistics_options.get(name, False)) for name in STATISTICS_OPTIONS}


@dataclass(frozen=True)
class Analysis:
    scored: ScoreResult
    statistics: Statistics


def analyse(
    conversations: Sequence[SourcedConversation],
    outputs: OutputSource,
    instrument: Instrument,
    options: ReportOptions,
) -> Analysis:
    """Score every output (baselines beside them, in the leading mode) and compute the
    statistics of the score frame."""
    primary = main_mode(options.modes)
    scored = score_runs(
        conversations,
        outputs(),  # type: ignore[arg-type]  # score_runs reads its runs once
        baseline_seed=options.seed,
        baseline_mode=primary,
    )
    records = [item.conversation for item in conversations]
    judge_answers = reply_answers = None
    if options.judged:
        judge_answers = pd.concat(
            [participant_answers(records), draft_judge_answers(o for _, o in outputs())],
            ignore_index=True,
        )
        reply_answers = pd.concat(
            [participant_reply_answers(records), judge_reply_answers(o for _, o in outputs())],
            ignore_index=True,
        )
    chosen = options.statistics()
    statistics = compute_statistics(
        score_frame(scored.conversations, records, profile=instrument.profile),
        StatsConfig(
            seed=options.seed,
            primary_mode=primary,
            rank_outcome=chosen["rank_outcome"],
            holm_across_axes=chosen["holm_across_axes"],
        ),
        judge_answers,
        reply_answers,
        {q.id: q.category for q in instrument.behaviour_questions},
    )
    return Analysis(scored, statistics)


def write_report_folder(
    analysis: Analysis,
    folder: Path,
    provenance: Provenance,
    reproducibility: Reproducibility | None,
) -> ReportFiles:
    """scores.json + Parquet, then report.json, leaderboard.csv, report.html, charts/."""
    write_scores(analysis.scored, folder)
    return write_report(analysis.statistics, folder, provenance, reproducibility)
