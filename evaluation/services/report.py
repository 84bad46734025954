"""The report folder of a run: every stored output scored, baselines beside them, statistics,
and the report files, written under ``ATTUNE_EVALUATIONS_DIR/<run id>/``.

Written into a temporary folder and renamed into place, so a reader (the admin, a download)
never sees half a report and a worker killed while writing leaves only a ``.tmp-*`` folder.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from evaluation import conf
from evaluation.benchmark.report import Provenance, write_report
from evaluation.benchmark.run_output import RunOutput, run_output_from_dict
from evaluation.benchmark.score_folder import score_runs, write_scores
from evaluation.benchmark.stats import (
    StatsConfig,
    compute_statistics,
    draft_judge_answers,
    participant_answers,
    score_frame,
)
from evaluation.engine import release_conversations
from evaluation.models import EvaluationRun, UnitStatus


def report_folder(run: EvaluationRun) -> Path:
    return conf.evaluations_dir() / str(run.pk)


def build_report(run: EvaluationRun) -> Path:
    """Score the run's finished units and write its report folder; returns the folder."""
    conversations = release_conversations(run.release.folder, run.subsample)
    # Outputs stream from the database (a big run holds gigabytes of them); score_runs reads
    # its runs once, so a generator keeps one output in memory at a time.
    scored = score_runs(conversations, _outputs(run), baseline_seed=run.seed)  # type: ignore[arg-type]
    records = [item.conversation for item in conversations]
    judge_answers = None
    if run.judges.exists():
        judge_answers = pd.concat(
            [participant_answers(records), draft_judge_answers(o for _, o in _outputs(run))],
            ignore_index=True,
        )
    primary = "default" if "default" in run.modes else run.modes[0]
    statistics = compute_statistics(
        score_frame(scored.conversations, records),
        StatsConfig(seed=run.seed, primary_mode=primary),
        judge_answers,
    )
    root = conf.evaluations_dir()
    temporary = root / f".tmp-{run.pk}-{uuid.uuid4().hex[:8]}"
    try:
        write_scores(scored, temporary)
        write_report(
            statistics, temporary, Provenance(run.release_hash, run.prompt_version, str(run.pk))
        )
        return _move_into_place(temporary, report_folder(run))
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


def _outputs(run: EvaluationRun) -> Iterator[tuple[str, RunOutput]]:
    units = run.units.filter(status=UnitStatus.DONE).order_by("pk")
    for pk, output in units.values_list("pk", "output").iterator(chunk_size=200):
        yield f"unit {pk}", run_output_from_dict(output)


def _move_into_place(temporary: Path, final: Path) -> Path:
    """A resumed run replaces its earlier report: the old folder is moved aside first."""
    old = None
    if final.exists():
        old = final.with_name(f".old-{final.name}-{uuid.uuid4().hex[:8]}")
        os.rename(final, old)
    os.rename(temporary, final)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return final
