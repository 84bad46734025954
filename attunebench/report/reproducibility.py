"""The reproducibility block of every report: what produced these numbers, and the one command
that re-runs the same evaluation from the release."""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from attunebench import __version__
from attunebench.report.configurations import PARAMS_POLICY, ModelConfiguration

ENGINE_ROOT = Path(__file__).resolve().parents[2]
UNKNOWN_ENGINE = "unknown (no git checkout)"


def engine_version(root: Path = ENGINE_ROOT) -> str:
    """``git describe --always --dirty --tags`` of the engine's checkout; a clear fallback where
    git or the checkout is absent (an installed copy, a container without .git)."""
    try:
        found = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--tags"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return UNKNOWN_ENGINE
    version = found.stdout.strip()
    return version if found.returncode == 0 and version else UNKNOWN_ENGINE


def package_engine_version() -> str:
    """``engine_version()`` in a checkout; the distribution's version where it is installed
    from a wheel (no checkout around it)."""
    found = engine_version()
    return f"attunebench {__version__} (installed)" if found == UNKNOWN_ENGINE else found


@dataclass(frozen=True)
class Reproducibility:
    release_name: str
    release_version: str
    release_hash: str
    prompt_version: str
    engine_version: str
    scoring_options: dict[str, Any]
    seeds: dict[str, int]  # what each seed drives
    judges: tuple[str, ...]
    models: tuple[str, ...]
    modes: tuple[str, ...]
    panas_strategy: str
    subsample: str
    command: str = field(default="")
    # The judges' model strings, in the order of ``judges`` (their aliases): the engine records
    # a judge's answers under its model string, so the agreement rows carry that name.
    judge_models: tuple[str, ...] = ()
    # The statistics options (StatsConfig): which tests count, never a score.
    statistics_options: dict[str, bool] = field(default_factory=dict)
    # How to run ``command``: where it writes, and what it needs (a worker, or --inline).
    rerun_note: str = ""
    # Every model's and judge's configuration (``configurations``), models first.
    configurations: tuple[ModelConfiguration, ...] = ()

    def judge_labels(self) -> dict[str, str]:
        """The name each judge's answers are recorded under -> how the report prints it."""
        if len(self.judge_models) != len(self.judges):  # a record without the model strings
            return {alias: alias for alias in self.judges}
        return {
            model: alias if alias == model else f"{alias} ({model})"
            for alias, model in zip(self.judges, self.judge_models, strict=True)
        }

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["judges"], data["models"], data["modes"], data["judge_models"] = (
            list(self.judges),
            list(self.models),
            list(self.modes),
            list(self.judge_models),
        )
        data["configurations"] = [c.to_dict() for c in self.configurations]
        data["params_policy"] = PARAMS_POLICY
        return data

    def rows(self) -> list[tuple[str, str]]:
        """(label, value) pairs for a table."""
        options = ", ".join(f"{k}={v}" for k, v in sorted(self.scoring_options.items()))
        return [
            ("Release", f"{self.release_name}@{self.release_version}"),
            ("Release content hash", self.release_hash),
            ("Prompt version", self.prompt_version),
            ("Engine version", self.engine_version),
            ("Scoring options", options or "defaults"),
            (
                "Statistics options",
                ", ".join(f"{k}={v}" for k, v in sorted(self.statistics_options.items()))
                or "defaults",
            ),
            ("Seeds", ", ".join(f"{k} {v}" for k, v in self.seeds.items())),
            ("Models", ", ".join(self.models)),
            ("Modes", ", ".join(self.modes)),
            ("PANAS strategy", self.panas_strategy),
            ("Subsample", self.subsample or "every conversation"),
            ("Judges", ", ".join(self.judge_labels().values()) or "none"),
            ("Re-run", self.command),
            *([("How to re-run", self.rerun_note)] if self.rerun_note else []),
        ]


def evaluate_command(
    *,
    release: str,
    models: Sequence[str],
    modes: Sequence[str],
    judges: Sequence[str],
    panas_strategy: str,
    subsample: str,
    prompt_set: str,
    seed: int,
    statistics_options: Mapping[str, bool] | None = None,
    inline: bool = False,
    out: str | None = None,
) -> str:
    """The ``manage.py evaluate`` command line that runs the same evaluation again: with
    ``inline`` in the calling process (no Celery worker needed), with ``out`` into that folder
    (``manage.py evaluate`` requires one)."""
    parts = ["python", "manage.py", "evaluate", "--release", release]
    for model in models:
        parts += ["--model", model]
    for mode in modes:
        parts += ["--mode", mode]
    for judge in judges:
        parts += ["--judge", judge]
    parts += ["--panas-strategy", panas_strategy]
    if subsample:
        parts += ["--subsample", subsample]
    parts += ["--prompt-set", prompt_set, "--seed", str(seed)]
    for name, chosen in sorted((statistics_options or {}).items()):
        if chosen:  # each option is a flag of ``manage.py evaluate``
            parts.append("--" + name.replace("_", "-"))
    if inline:
        parts.append("--inline")
    if out is not None:
        parts += ["--out", out]
    return shlex.join(parts)
