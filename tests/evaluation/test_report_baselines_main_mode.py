"""A run evaluated only in mode ``verbose``: its report shows the chance baselines beside the
models (they are scored in the report's main mode, not always in ``default``)."""

import csv
import json

import pytest

from tests.evaluation.conftest import evaluate_demo

pytestmark = pytest.mark.django_db


def test_a_verbose_only_report_shows_the_baselines(demo_release, demo_models, tmp_path):
    out = tmp_path / "report"
    evaluate_demo(out, "--mode", "verbose", "--subsample", "sample3")
    statistics = json.loads((out / "report.json").read_text())["statistics"]
    assert statistics["settings"]["primary_mode"] == "verbose"
    assert "baseline/random" in statistics["baselines"]
    rows = list(csv.DictReader((out / "leaderboard.csv").open()))
    assert {row["model"] for row in rows if row["kind"] == "baseline"} >= {"baseline/random"}
