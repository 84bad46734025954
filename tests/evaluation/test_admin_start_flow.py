"""Starting a run in the admin: the form, a confirmation page with the calls and the estimated
cost (nothing queued yet), then the run queued after commit, and its progress page."""

import pytest
from django.urls import reverse

from evaluation.models import EvaluationRun, RunStatus

pytestmark = pytest.mark.django_db
ADD = "admin:evaluation_evaluationrun_add"


def start_form(release, models, **changes):
    form = {
        "release": release.pk,
        "models": [m.pk for m in models],
        "modes": ["default", "verbose"],
        "panas_strategy": "absolute",
        "subsample": "",
        "prompt_set": "v1",
        "seed": "7",
    }
    return {**form, **changes}


def test_plan_then_confirm(
    researcher_client, demo_release, demo_models, django_capture_on_commit_callbacks
):
    form = start_form(demo_release, demo_models)
    page = researcher_client.post(reverse(ADD), {**form, "_plan": "1"})
    assert page.status_code == 200
    assert "24 units" in page.text  # 6 conversations x 2 models x 2 modes
    assert 'id="plan-calls"' in page.text and "Estimated cost: $0.0000" in page.text
    assert not EvaluationRun.objects.exists()  # the plan writes nothing

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = researcher_client.post(reverse(ADD), {**form, "_confirm": "1"})
    run = EvaluationRun.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/{run.pk}/change/")
    assert run.status == RunStatus.QUEUED and run.units_total == 24 and run.seed == 7
    assert run.estimated_calls > 0 and run.created_by.username == "researcher"
    assert len(callbacks) == 1  # the start task, sent after commit

    progress = researcher_client.get(response["Location"])
    assert progress.status_code == 200
    assert '<meta http-equiv="refresh"' in progress.text
    assert "0/24</strong> units done" in progress.text
    assert "Cancel the run" in progress.text


def test_edit_keeps_the_choices_and_errors_are_shown(researcher_client, demo_release, demo_models):
    form = start_form(demo_release, demo_models, subsample="sample99")
    page = researcher_client.post(reverse(ADD), {**form, "_plan": "1"})
    assert page.status_code == 200 and "no subsample" in page.text
    back = researcher_client.post(
        reverse(ADD), {**start_form(demo_release, demo_models), "_edit": "1"}
    )
    assert back.status_code == 200 and "Show calls and cost" in back.text
    assert f'value="{demo_models[0].pk}"' in back.text and "checked" in back.text


def test_only_researchers_start_runs(client, reviewer, viewer, demo_release):
    for user in (reviewer, viewer):
        client.force_login(user)
        assert client.get(reverse(ADD)).status_code == 403
