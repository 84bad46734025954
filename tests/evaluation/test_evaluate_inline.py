"""`manage.py evaluate --inline` on a small seeded release with two demo models: the run happens
in the command's own process (no Celery) and the report folder lands in --out."""

import csv
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotations.models import AuditEntry
from evaluation.models import EvaluationRun, RunStatus, UnitStatus
from evaluation.services.endpoints import endpoint_for_model

pytestmark = pytest.mark.django_db


def test_inline_run_writes_the_report_to_out(demo_release, demo_models, tmp_path):
    out = tmp_path / "report"
    stdout = StringIO()
    call_command(
        "evaluate",
        "--release",
        "attunebench@1.0.0",
        "--model",
        "demo-listener",
        "--model",
        "attune-demo/advisor",
        "--inline",
        "--out",
        str(out),
        stdout=stdout,
    )
    lines = stdout.getvalue().strip().splitlines()
    assert lines[-1] == str(out.resolve())
    assert lines[0].startswith("12 units (6 conversations x 2 models x 1 modes)")
    assert "estimated cost $0.0000" in lines[0]  # demo models are free, and known to be

    run = EvaluationRun.objects.get()
    assert run.status == RunStatus.COMPLETED and run.created_via == "command:evaluate"
    assert run.units_done == 12 and run.units_failed == 0
    assert run.calls_made + run.calls_cached >= run.estimated_calls
    assert set(run.units.values_list("status", flat=True)) == {UnitStatus.DONE}
    assert {u.split("@")[0] for u in run.units.values_list("worker", flat=True)} == {"inline"}

    assert {p.name for p in out.iterdir()} >= {
        "report.html",
        "report.json",
        "leaderboard.csv",
        "charts",
        "scores.json",
    }
    assert list((out / "charts").glob("*.svg"))
    report = json.loads((out / "report.json").read_text())
    assert report["provenance"] == {
        "release_hash": demo_release.content_hash,
        "prompt_version": run.prompt_version,
        "run_id": str(run.pk),
    }
    rows = list(csv.DictReader((out / "leaderboard.csv").open()))
    models = {row["model"] for row in rows if row["kind"] == "model"}
    assert models == {"attune-demo/listener", "attune-demo/advisor"}
    assert any(row["kind"] == "baseline" for row in rows)
    assert AuditEntry.objects.filter(action="evaluation.run.complete", target_id=str(run.pk))


def test_a_litellm_string_finds_its_endpoint(demo_release, demo_models, tmp_path):
    call_command(
        "evaluate",
        "--release",
        "attunebench@1.0.0",
        "--model",
        "attune-demo/listener",
        "--model",
        "demo-advisor",
        "--subsample",
        "sample3",
        "--inline",
        "--out",
        str(tmp_path / "out"),
        stdout=StringIO(),
    )
    run = EvaluationRun.objects.get()
    assert run.units_total == 6  # 3 conversations x 2 models
    assert set(run.models_under_test.all()) == set(demo_models)


def test_a_new_litellm_string_gets_an_endpoint_never_offered_to_participants(db):
    endpoint = endpoint_for_model("openai/gpt-4o-mini", actor_label="test")
    assert endpoint.alias == "openai-gpt-4o-mini" and endpoint.litellm_model == "openai/gpt-4o-mini"
    assert not endpoint.active
    assert endpoint_for_model("openai/gpt-4o-mini", actor_label="test") == endpoint
    assert endpoint_for_model("openai-gpt-4o-mini", actor_label="test") == endpoint  # its alias
    assert AuditEntry.objects.filter(action="annotations.modelendpoint.create").count() == 1


def test_unknown_release_and_alias_are_clear_errors(demo_release, tmp_path):
    with pytest.raises(CommandError, match="no frozen release"):
        call_command("evaluate", "--release", "nope@1.0.0", "--model", "x/y", "--out", "o")
    with pytest.raises(CommandError, match="no model endpoint with the alias 'listner'"):
        call_command(
            "evaluate", "--release", "attunebench@1.0.0", "--model", "listner", "--out", "o"
        )


def test_modes_and_two_judges_reach_the_statistics(demo_release, demo_models, tmp_path):
    out = tmp_path / "report"
    call_command(
        "evaluate",
        "--release",
        "attunebench@1.0.0",
        "--model",
        "demo-listener",
        "--mode",
        "default",
        "--mode",
        "verbose",
        "--judge",
        "attune-demo/questioner",
        "--judge",
        "attune-demo/improver",
        "--panas-strategy",
        "delta",
        "--subsample",
        "sample3",
        "--inline",
        "--out",
        str(out),
        stdout=StringIO(),
    )
    statistics = json.loads((out / "report.json").read_text())["statistics"]
    deltas = {(d["mode"], d["base_mode"]) for d in statistics["mode_deltas"]}
    assert deltas == {("verbose", "default")}
    raters = {(a["rater_a"], a["rater_b"]) for a in statistics["agreement"]}
    assert raters == {("attune-demo/improver", "attune-demo/questioner")}  # between the judges
    run = EvaluationRun.objects.get()
    assert run.panas_strategy == "delta" and run.judges.count() == 2


def test_no_worker_is_a_clear_error_that_suggests_inline(demo_release, demo_models, tmp_path):
    with pytest.raises(CommandError, match="no Celery worker took run .* --inline"):
        call_command(
            "evaluate",
            "--release",
            "attunebench@1.0.0",
            "--model",
            "demo-listener",
            "--worker-timeout",
            "0.5",
            "--out",
            str(tmp_path / "out"),
            stdout=StringIO(),
        )
    assert EvaluationRun.objects.get().status == RunStatus.CANCELLED
