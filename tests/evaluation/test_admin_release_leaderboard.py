"""The admin's standing leaderboard of a release: every finished run's scores compared again
(a model added by a later run ranks beside the earlier ones), runs that may not be compared
(another seed) on a board of their own; readers of reports see it, anyone else does not."""

import pytest
from django.urls import reverse

from annotations.demo import ensure_demo_endpoints
from evaluation.services.creation import create_run
from evaluation.services.inline import run_inline
from tests.factories import make_staff, make_study

pytestmark = pytest.mark.django_db


def finish(run_request, models, seed=None):
    changes = {"models": models, "subsample": "sample3"}
    if seed is not None:
        changes["seed"] = seed
    run = create_run(run_request(**changes), actor_label="test", inline=True)
    return run_inline(run.pk, worker="test@host")


@pytest.fixture
def two_runs_and_another_seed(run_request, demo_models):
    questioner = next(e for e in ensure_demo_endpoints() if e.model_name == "questioner")
    first = finish(run_request, demo_models)
    second = finish(run_request, (questioner,))
    other = finish(run_request, (questioner,), seed=first.seed + 1)
    return first, second, other


def test_a_later_model_ranks_beside_the_earlier_ones(
    two_runs_and_another_seed, client, researcher, viewer
):
    first, second, other = two_runs_and_another_seed
    url = reverse("admin:evaluation_release_leaderboard", args=[first.release_id])
    for user in (researcher, viewer):
        client.force_login(user)
        page = client.get(url)
        assert page.status_code == 200
        boards = page.text.split('class="leaderboard-board"')[1:]
        assert len(boards) == 2  # the other seed's run is never mixed in
        joint = next(b for b in boards if f"seed {first.seed}" in b)
        for model in ("attune-demo/listener", "attune-demo/advisor", "attune-demo/questioner"):
            assert model in joint
        assert joint.count("<tr>") >= 1 + 3 + 1 + 3  # heads, 3 models (+baselines), 3 pairs
        report = client.get(reverse("admin:evaluation_run_report", args=[first.pk]))
        assert url in report.text


def test_an_outsider_does_not_see_it(two_runs_and_another_seed, client, outsider):
    first = two_runs_and_another_seed[0]
    client.force_login(outsider)
    page = client.get(reverse("admin:evaluation_release_leaderboard", args=[first.release_id]))
    assert page.status_code == 302 and "attune-demo" not in page.text


def test_a_researcher_of_another_study_does_not_see_it(two_runs_and_another_seed, client):
    first = two_runs_and_another_seed[0]
    elsewhere = make_study()
    client.force_login(make_staff("researcher", studies={elsewhere: "researcher"}))
    page = client.get(reverse("admin:evaluation_release_leaderboard", args=[first.release_id]))
    assert page.status_code == 403 and "attune-demo" not in page.text
