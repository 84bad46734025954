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

from attune_collect.config import attune_config
from attunebench.instrument import Instrument, default_instrument
from attunebench.report import (
    Provenance,
    Reproducibility,
    engine_version,
    evaluate_command,
)
from attunebench.report.build import (
    STATISTICS_OPTIONS,
    ReportOptions,
    analyse,
    write_report_folder,
)
from attunebench.run_output import RunOutput, run_output_from_dict
from evaluation.engine import model_spec, release_conversations, run_options
from evaluation.models import EvaluationRun, UnitStatus
from evaluation.services.configurations import run_configurations


def report_folder(run: EvaluationRun) -> Path:
    return attune_config().evaluations_dir / str(run.pk)


def build_report(run: EvaluationRun) -> Path:
    """Score the run's finished units and write its report folder; returns the folder.

    The pipeline is the package's (``attunebench.report.build``), as ``attunebench report``
    runs it on a folder of the same outputs; here it reads them from the database."""
    conversations = release_conversations(run.release.folder, run.subsample)
    analysis = analyse(
        conversations,
        # Outputs stream from the database (a big run holds gigabytes of them): each pass
        # keeps one output in memory at a time.
        lambda: _outputs(run),
        run_instrument(run),
        ReportOptions(
            seed=run.seed,
            modes=tuple(run.modes),
            judged=run.judges.exists(),
            statistics_options=statistics_options(run),
        ),
    )
    root = attune_config().evaluations_dir
    temporary = root / f".tmp-{run.pk}-{uuid.uuid4().hex[:8]}"
    try:
        write_report_folder(
            analysis,
            temporary,
            Provenance(run.release_hash, run.prompt_version, str(run.pk)),
            reproducibility(run, analysis.scored.options.as_dict()),
        )
        return _move_into_place(temporary, report_folder(run))
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


def statistics_options(run: EvaluationRun) -> dict[str, bool]:
    """The run's statistics options (EvaluationRun.statistics_options), all off by default."""
    stored = run.statistics_options or {}
    return {name: bool(stored.get(name, False)) for name in STATISTICS_OPTIONS}


def reproducibility(run: EvaluationRun, scoring_options: dict[str, bool]) -> Reproducibility:
    """What produced the run's numbers, and the ``manage.py evaluate`` line that re-runs it."""
    models = tuple(e.alias for e in run.models_under_test.order_by("alias"))
    out = f"rerun-of-run-{run.pk}"  # the reader may change it: any folder path
    judge_endpoints = list(run.judges.order_by("alias"))
    judges = tuple(e.alias for e in judge_endpoints)
    release = run.release
    return Reproducibility(
        release_name=release.name,
        release_version=release.version,
        release_hash=run.release_hash,
        prompt_version=run.prompt_version,
        engine_version=engine_version(),
        scoring_options=scoring_options,
        statistics_options=statistics_options(run),
        seeds={
            "statistics and baselines": run.seed,
            "pairwise presentation": _pairwise_seed(run),
        },
        judges=judges,
        # The agreement rows name a judge by its model string (what the engine records).
        judge_models=tuple(model_spec(e).name for e in judge_endpoints),
        models=models,
        modes=tuple(run.modes),
        panas_strategy=run.panas_strategy,
        subsample=run.subsample,
        command=evaluate_command(
            release=f"{release.name}@{release.version}",
            models=models,
            modes=run.modes,
            judges=judges,
            panas_strategy=run.panas_strategy,
            subsample=run.subsample,
            prompt_set=run.prompt_set,
            seed=run.seed,
            statistics_options=statistics_options(run),
            inline=True,
            out=out,
        ),
        rerun_note=rerun_note(out),
        configurations=run_configurations(run),
    )


def rerun_note(out: str) -> str:
    """What the printed command needs and where it writes, in words."""
    return (
        "Run the command from the folder that holds manage.py, on an install with this release "
        "and these model aliases. --inline runs the evaluation in that process (no Celery "
        "worker needed); without it a Celery worker must be running (celery -A attune_collect "
        f"worker). The report is written to the folder after --out ({out}, made if "
        "missing; give another path to choose where)."
    )


def _pairwise_seed(run: EvaluationRun) -> int:
    options = run_options(panas_strategy=run.panas_strategy, judges=(), prompt_set=run.prompt_set)
    return options.pairwise_seed


def run_instrument(run: EvaluationRun) -> Instrument:
    """The release's instrument (its questions' categories), else the default one."""
    study = run.release.studies.select_related("instrument").first()
    return study.instrument.parsed() if study is not None else default_instrument()


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
