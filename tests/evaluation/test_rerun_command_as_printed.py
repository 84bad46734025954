"""Issue 40, item 5: the re-run command the report prints works as printed on the install that
made the report (no Celery worker running: it says --inline), writes to the folder after
--out, and reproduces the numbers."""

import json
import shlex
from io import StringIO

import pytest
from django.core.management import call_command

from evaluation.models import EvaluationRun
from tests.evaluation.conftest import evaluate_demo

pytestmark = pytest.mark.django_db


def test_the_printed_command_reproduces_the_report(
    demo_release, demo_models, tmp_path, monkeypatch
):
    first = tmp_path / "first"
    evaluate_demo(first, "--subsample", "sample3", "--mode", "default", "--mode", "verbose")
    document = json.loads((first / "report.json").read_text())
    command = document["reproducibility"]["command"]
    run = EvaluationRun.objects.get()
    assert command.endswith(f"--inline --out rerun-of-run-{run.pk}")
    assert f"rerun-of-run-{run.pk}" in document["reproducibility"]["rerun_note"]

    words = shlex.split(command)
    assert words[:3] == ["python", "manage.py", "evaluate"]
    monkeypatch.chdir(tmp_path)  # the command's --out is relative to where it is run
    call_command(*words[2:], stdout=StringIO())  # as printed: no worker runs in this test

    again = json.loads((tmp_path / f"rerun-of-run-{run.pk}" / "report.json").read_text())
    assert again["statistics"] == document["statistics"]
    assert again["reproducibility"]["command"].split(" --out ")[0] == command.split(" --out ")[0]
    assert EvaluationRun.objects.count() == 2
