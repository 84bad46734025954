"""The distribution of the pure core: its wheel, installed into a fresh virtual environment with
only its declared dependencies (no Django there), runs, scores and reports the demo release
against the local OpenAI-compatible test server; and its report of a finished admin run's
outputs is the admin's report (but the re-run command).

Slow: it builds a wheel and a virtual environment (the dependencies come from pip's cache, or
PyPI the first time, at the versions requirements.txt pins)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from attune_collect.llm.testing import run_test_server
from evaluation.models import EvaluationRun
from tests.engine.conftest import server_json_reply
from tests.evaluation.conftest import evaluate_demo
from tests.package.reports import comparable, export_outputs

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

ROOT = Path(__file__).resolve().parents[2]
KEY_ENV = "PACKAGE_TEST_API_KEY"


def run(*command: str | Path, env: dict[str, str] | None = None) -> str:
    found = subprocess.run(
        [str(c) for c in command],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
        check=False,
    )
    assert found.returncode == 0, f"{command[:3]} failed:\n{found.stdout}\n{found.stderr}"
    return found.stdout


def pins(tmp_path: Path) -> Path:
    """requirements.txt's pins as a constraints file (pip refuses extras there)."""
    lines = []
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.-]+)(\[[^\]]*\])?(==\S+)", line)
        if match:
            lines.append(match.group(1) + match.group(3))
    path = tmp_path / "constraints.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def installed(tmp_path: Path) -> Path:
    """The fresh environment's bin folder, with the wheel and its dependencies installed."""
    wheels = tmp_path / "wheel"
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        wheels,
        ROOT / "packaging" / "attunebench",
    )
    (wheel,) = wheels.glob("attunebench-*.whl")
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    run(
        venv / "bin" / "python",
        "-m",
        "pip",
        "install",
        "-q",
        "--disable-pip-version-check",
        "-c",
        pins(tmp_path),
        wheel,
    )
    return venv / "bin"


def test_the_wheel_runs_scores_and_reports_without_django(
    installed, demo_release, demo_models, tmp_path
):
    listed = run(installed / "python", "-m", "pip", "list", "--format=freeze")
    assert "attunebench==" in listed
    assert not re.search(r"(?im)^django", listed)  # neither Django nor any django-* package
    release = str(demo_release.folder)

    with run_test_server() as server:
        server.behaviour.reply = server_json_reply
        run(
            installed / "attunebench",
            "run",
            "--data",
            release,
            "--model",
            "openai/model-a",
            "--api-base",
            server.base_url,
            "--api-key-env",
            KEY_ENV,
            "--subsample",
            "sample3",
            "--no-progress",
            "--out",
            tmp_path / "runs",
            env={KEY_ENV: "sk-package-test"},
        )
        assert {body["model"] for body in server.behaviour.requests} == {"model-a"}
    run(
        installed / "attunebench",
        "score",
        "--data",
        release,
        "--runs",
        tmp_path / "runs",
        "--out",
        tmp_path / "scores",
    )
    run(
        installed / "attunebench",
        "report",
        "--data",
        release,
        "--runs",
        tmp_path / "runs",
        "--subsample",
        "sample3",
        "--out",
        tmp_path / "report",
    )
    scores = json.loads((tmp_path / "scores" / "scores.json").read_text())
    assert "openai/model-a" in {a["em_model"] for a in scores["aggregates"]}
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    assert report["statistics"]["models"] == ["openai/model-a"]
    assert (tmp_path / "report" / "report.html").read_text().lower().startswith("<!doctype html>")

    # The same outputs give the admin's report: a finished admin run, reported by the wheel.
    evaluate_demo(tmp_path / "admin", "--subsample", "sample3", "--seed", "5")
    admin_run = EvaluationRun.objects.get()
    outputs = export_outputs(admin_run, tmp_path / "admin-runs")
    run(
        installed / "attunebench",
        "report",
        "--data",
        release,
        "--runs",
        outputs,
        "--subsample",
        "sample3",
        "--seed",
        "5",
        "--run-id",
        str(admin_run.pk),
        "--out",
        tmp_path / "wheel-report",
    )
    ours, theirs = (
        json.loads((folder / "report.json").read_text())
        for folder in (tmp_path / "wheel-report", tmp_path / "admin")
    )
    # The engine version names the build (a wheel has no git checkout to describe).
    assert ours["reproducibility"]["engine_version"] == "attunebench 0.1.0 (installed)"
    ours["reproducibility"]["engine_version"] = theirs["reproducibility"]["engine_version"]
    assert comparable(ours) == comparable(theirs)
