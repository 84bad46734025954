"""The admin's standing leaderboard keeps each run's provenance: a run scored with other
scoring options is never mixed into a board (it gets a board of its own, which names its
options), and every model kept carries the configuration it ran with, as its report names it."""

import json

import pytest
from django.urls import reverse

from annotations.releases.models import Release
from attunebench.score_folder import SCORES_FILE
from evaluation.services.leaderboard import board_as_dict, release_boards
from evaluation.services.report import report_folder
from tests.evaluation.test_admin_release_leaderboard import finish

pytestmark = pytest.mark.django_db

COMPAT = {"compat": True, "asked_only": False}  # the reference's rules where ours depart


def scored_with(run, options: dict[str, bool]) -> None:
    """Record the run's report as scored with ``options`` (what the board reads of its scoring)."""
    path = report_folder(run) / SCORES_FILE
    scores = json.loads(path.read_text(encoding="utf-8"))
    scores["scoring_options"] = options
    path.write_text(json.dumps(scores), encoding="utf-8")


def test_a_run_scored_with_other_options_is_never_mixed(run_request, demo_models, client, viewer):
    first = finish(run_request, demo_models[:1])
    second = finish(run_request, demo_models[1:])
    scored_with(second, COMPAT)
    release = Release.objects.get(pk=first.release_id)

    boards = release_boards(release, [first, second])

    assert [(b.identity.scoring_options, b.run_ids) for b in boards] == [
        ({"compat": False, "asked_only": False}, (first.pk,)),
        (COMPAT, (second.pk,)),
    ]
    client.force_login(viewer)
    page = client.get(reverse("admin:evaluation_release_leaderboard", args=[release.pk]))
    shown = page.text.split('class="leaderboard-board"')[1:]
    assert len(shown) == 2
    assert "scoring options\ncompat=False, asked_only=False" in shown[0]
    assert "scoring options\ncompat=True, asked_only=False" in shown[1]


def test_each_model_kept_carries_its_configuration(run_request, demo_models, client, viewer):
    run = finish(run_request, demo_models)
    release = Release.objects.get(pk=run.release_id)
    report = json.loads((report_folder(run) / "report.json").read_text(encoding="utf-8"))
    named = {c["model"]: c for c in report["reproducibility"]["configurations"]}

    (board,) = release_boards(release, [run])

    assert {(e.model, e.run_id) for e in board.entries} == {
        ("attune-demo/listener", str(run.pk)),
        ("attune-demo/advisor", str(run.pk)),
    }
    for entry in board.entries:
        config = entry.configuration
        assert config["model"] == entry.model  # run_config.json's keys: model, api_base, params
        assert {"api_base", "params"} <= config.keys()
        assert config["configuration_id"] == named[entry.model]["configuration_id"]
        assert config["alias"] == named[entry.model]["alias"]
    exported = board_as_dict(board)["entries"]
    assert {e["model"]: e["configuration"] for e in exported} == {
        e.model: e.configuration for e in board.entries
    }
    assert all("rows" not in e for e in exported)
    client.force_login(viewer)
    page = client.get(reverse("admin:evaluation_release_leaderboard", args=[release.pk]))
    for entry in board.entries:
        assert entry.configuration["configuration_id"] in page.text
