"""Issue 40, items 4 and 6: ``manage.py evaluate --holm-across-axes --rank-outcome`` stores the
statistics options with the run, the report uses and records them, and the re-run command it
prints carries them."""

import json

import pytest

from evaluation.models import EvaluationRun
from tests.evaluation.conftest import evaluate_demo

pytestmark = pytest.mark.django_db


def test_the_statistics_options_reach_the_report_and_its_command(
    demo_release, demo_models, tmp_path
):
    out = tmp_path / "report"
    evaluate_demo(out, "--subsample", "sample3", "--holm-across-axes", "--rank-outcome")
    run = EvaluationRun.objects.get()
    assert run.statistics_options == {"holm_across_axes": True, "rank_outcome": True}
    document = json.loads((out / "report.json").read_text())
    settings = document["statistics"]["settings"]
    assert settings["holm_across_axes"] is True and settings["rank_outcome"] is True
    assert document["multiplicity"]["correction"] == "holm_across_axes"
    assert "outcome_prediction" in document["statistics"]["ranked_axes"]
    block = document["reproducibility"]
    assert block["statistics_options"] == {"holm_across_axes": True, "rank_outcome": True}
    assert "--holm-across-axes --rank-outcome" in block["command"]
