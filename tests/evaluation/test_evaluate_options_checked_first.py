"""`manage.py evaluate` refuses, before it creates a run, the options that would fail only
after the run (an --out that is a file: the finished report could not be copied) or never end
(a --worker-timeout of nan), and a seed its column cannot hold; nothing is created."""

import pytest
from django.core.management.base import CommandError
from django.urls import reverse

from evaluation.models import EvaluationRun
from tests.evaluation.conftest import ADD, evaluate_demo, start_form

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--worker-timeout", "nan"), "--worker-timeout"),
        (("--worker-timeout", "0"), "--worker-timeout"),
        (("--seed", str(10**23)), "--seed"),
        (("--seed", "-1"), "--seed"),
    ],
)
def test_bad_options_are_refused_before_a_run(
    demo_release, demo_models, tmp_path, options, message
):
    with pytest.raises(CommandError, match=message):
        evaluate_demo(tmp_path / "out", *options)
    assert not EvaluationRun.objects.exists()


def test_an_out_that_is_a_file_is_refused_before_a_run(demo_release, demo_models, tmp_path):
    report = tmp_path / "report.html"
    report.write_text("an earlier report")
    with pytest.raises(CommandError, match="is a file"):
        evaluate_demo(report)
    assert not EvaluationRun.objects.exists()
    assert report.read_text() == "an earlier report"


def test_the_admin_form_refuses_a_seed_its_column_cannot_hold(
    researcher_client, demo_release, demo_models
):
    form = {**start_form(demo_release, demo_models, ""), "seed": str(10**23)}
    page = researcher_client.post(reverse(ADD), form)
    assert page.status_code == 200 and "less than or equal to" in page.text
    assert not EvaluationRun.objects.exists()
