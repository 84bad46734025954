"""The distribution of the pure core: its wheel, installed into a fresh virtual environment with
only its declared dependencies (no Django there), runs, scores and reports the demo release
against the local OpenAI-compatible test server; and its report of a finished admin run's
outputs is the admin's report (but the re-run command).

Slow: it builds a wheel and a virtual environment (uv installs the dependencies from its cache,
or PyPI the first time, at the versions requirements.txt pins; wheel_venv.py), shared with the
Inspect task test (test_wheel_inspect_task.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from attune_collect.llm.testing import run_test_server
from evaluation.models import EvaluationRun
from tests.engine.conftest import server_json_reply
from tests.evaluation.conftest import evaluate_demo
from tests.package.reports import comparable, export_outputs
from tests.package.wheel_venv import listed, run

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

KEY_ENV = "PACKAGE_TEST_API_KEY"


@pytest.fixture
def installed(wheel_venv: tuple[Path, Path]) -> Path:
    """The fresh environment's bin folder, with the wheel and its dependencies installed."""
    return wheel_venv[0]


def test_the_wheel_runs_scores_and_reports_without_django(
    installed, demo_release, demo_models, tmp_path
):
    packages = listed(installed)
    assert "attunebench==" in packages
    assert not re.search(r"(?im)^django", packages)  # neither Django nor any django-* package
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
