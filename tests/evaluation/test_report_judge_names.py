"""Issue 40, item 2: the report names each judge once. The engine records a judge's answers
under its model string and the run's judges are endpoints with aliases; the judged-quality
sentence must match the two, not list the alias ("no shared answers") beside the model string
(a kappa). Two judges whose aliases differ from their model strings, evaluated end to end."""

import json

import pytest

from annotations.demo import ensure_demo_endpoints
from tests.evaluation.conftest import evaluate_demo
from tests.factories import make_endpoint

pytestmark = pytest.mark.django_db


def test_two_judges_are_each_named_once_with_their_agreement(demo_release, demo_models, tmp_path):
    ensure_demo_endpoints()  # demo-questioner: model attune-demo/questioner
    make_endpoint(alias="second-judge", litellm_model="attune-demo/advisor")
    out = tmp_path / "report"
    evaluate_demo(
        out, "--judge", "demo-questioner", "--judge", "second-judge", "--subsample", "sample3"
    )
    document = json.loads((out / "report.json").read_text())
    block = document["reproducibility"]
    assert block["judges"] == ["demo-questioner", "second-judge"]
    assert block["judge_models"] == ["attune-demo/questioner", "attune-demo/advisor"]
    raters = {
        row["rater_b"]
        for row in document["statistics"]["reply_agreement"]
        if row["rater_a"] == "participant"
    }
    assert raters == {"attune-demo/questioner", "attune-demo/advisor"}

    note = document["axis_notes"]["judged_response_quality"]
    assert "no shared answers" not in note
    for label in (
        "demo-questioner (attune-demo/questioner): kappa ",
        "second-judge (attune-demo/advisor): kappa ",
    ):
        assert note.count(label) == 1, note
    # Each judge appears once in the sentence, under its label only.
    assert note.count("attune-demo/questioner") == 1 and note.count("attune-demo/advisor") == 1
    html = (out / "report.html").read_text()
    assert "demo-questioner (attune-demo/questioner): kappa " in html
