"""``attunebench report`` on a folder of a finished admin run's outputs (with the run_config.json
that names its models and judges by the admin's aliases) writes the report the admin wrote for
that run: the same report.json but the re-run command (each names its own tool) and what only
the admin's endpoint records hold (reports.py), and the same charts, given the run's id to name.
Both call ``attunebench.report.build``."""

import json

import pytest

from attunebench.cli import main
from evaluation.models import EvaluationRun
from tests.evaluation.conftest import evaluate_demo
from tests.package.reports import comparable, export_outputs

pytestmark = pytest.mark.django_db


def test_the_cli_report_of_the_admin_runs_outputs_is_the_admins(
    demo_release, demo_models, tmp_path
):
    admin = tmp_path / "admin"
    evaluate_demo(admin, "--subsample", "sample3", "--seed", "5", "--judge", "demo-questioner")
    run = EvaluationRun.objects.get()
    runs = export_outputs(run, tmp_path / "runs")
    cli = tmp_path / "cli"

    code = main(
        [
            "report",
            "--data",
            str(demo_release.folder),
            "--runs",
            str(runs),
            "--subsample",
            "sample3",
            "--seed",
            "5",
            "--run-id",
            str(run.pk),  # the id the admin's captions name
            "--out",
            str(cli),
        ]
    )

    assert code == 0
    ours, theirs = (json.loads((f / "report.json").read_text()) for f in (cli, admin))
    assert comparable(ours) == comparable(theirs)
    block = ours["reproducibility"]  # named as the admin names them, judged by the same judge
    assert (block["models"], block["judges"]) == (["demo-listener"], ["demo-questioner"])
    assert [c["role"] for c in block["configurations"]] == ["model", "judge"]
    for chart in theirs["charts"]:  # the SVGs are byte for byte the admin's
        assert (cli / chart["file"]).read_bytes() == (admin / chart["file"]).read_bytes()
