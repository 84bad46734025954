"""Issue 40, item 1: the report of a run states each model's and judge's configuration as it
was when the run was created (an endpoint edited afterwards does not change it), with the
endpoint settings apart."""

import json

import pytest

from annotations.models import ModelEndpoint
from attunebench.prompts import load_prompt_set
from attunebench.report.configurations import benchmark_system_prompt_sha256
from evaluation.models import EvaluationRun
from evaluation.services.report import build_report
from tests.evaluation.conftest import evaluate_demo
from tests.factories import make_endpoint

pytestmark = pytest.mark.django_db


def test_each_model_and_judge_configuration_is_in_the_report(demo_release, demo_models, tmp_path):
    make_endpoint(
        alias="the-judge",
        litellm_model="attune-demo/questioner",
        params={"temperature": 0.3, "max_tokens": 300, "stop": ["\n\n"]},
        max_concurrency=3,
        # High enough never to bind: a limit of 30 a minute made the judge's calls wait 2 s each.
        requests_per_minute=60_000,
    )
    out = tmp_path / "report"
    evaluate_demo(out, "--judge", "the-judge", "--subsample", "sample3")
    run = EvaluationRun.objects.get()
    document = json.loads((out / "report.json").read_text())
    found = {c["alias"]: c for c in document["reproducibility"]["configurations"]}
    assert [c["role"] for c in document["reproducibility"]["configurations"]] == [
        "model",
        "judge",
    ]
    hashes = benchmark_system_prompt_sha256(load_prompt_set("v1"))
    judge = found["the-judge"]
    assert judge["model"] == "attune-demo/questioner"
    assert judge["params"] == {"temperature": 0.3, "max_tokens": 300}
    assert judge["params_withheld"] == ["stop"]
    assert judge["system_prompt_sha256"] == hashes["judge"]
    assert judge["system_prompt_version"] == run.prompt_version
    assert judge["endpoint_settings"]["max_concurrency"] == 3
    assert judge["endpoint_settings"]["requests_per_minute"] == 60_000
    listener = found["demo-listener"]
    assert listener["model"] == "attune-demo/listener"
    assert listener["system_prompt_sha256"] == hashes["model"]
    assert len(listener["configuration_id"]) == 16
    assert "parameters shown from an allow-list" in document["reproducibility"]["params_policy"]
    html = (out / "report.html").read_text()
    assert f"<code>{judge['configuration_id']}</code>" in html
    assert "they change nothing in the numbers" in html and "max_concurrency=3" in html

    # Edited after the run: the report still states what ran.
    ModelEndpoint.objects.filter(alias="the-judge").update(params={"temperature": 1.0})
    again = json.loads((build_report(run) / "report.json").read_text())
    edited = {c["alias"]: c for c in again["reproducibility"]["configurations"]}["the-judge"]
    assert edited["params"] == {"temperature": 0.3, "max_tokens": 300}
    assert edited["configuration_id"] == judge["configuration_id"]
