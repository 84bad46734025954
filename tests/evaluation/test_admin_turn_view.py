"""Issue 40, item 7: the per-turn view of a finished run in the admin. Readers of the run's
report read it (the report page links to it); the marks it shows are the report's per-turn
scores (per_turn.parquet); reviewers, outsiders and users outside the run's studies do not."""

from pathlib import Path

import pandas as pd
import pytest
from django.urls import reverse

from evaluation.models import EvaluationRun
from evaluation.services.creation import create_run
from evaluation.services.inline import run_inline
from evaluation.services.turn_marks import BEHAVIOUR, EMOTION, PREFERENCE
from evaluation.services.turn_view import Selection, conversation_page, conversation_rows
from tests.factories import make_staff, make_study

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_run(run_request, demo_models):
    run = create_run(
        run_request(models=demo_models, subsample="sample3"), actor_label="test", inline=True
    )
    return run_inline(run.pk, worker="test@host")


def turns_url(run: EvaluationRun) -> str:
    return reverse("admin:evaluation_run_turns", args=[run.pk])


def conversation_url(run: EvaluationRun, conversation_id: str) -> str:
    return reverse("admin:evaluation_run_conversation_turns", args=[run.pk, conversation_id])


def first_conversation(run: EvaluationRun) -> str:
    return run.units.order_by("conversation_id").values_list("conversation_id", flat=True)[0]


def test_wrong_turns_are_the_reports_per_turn_scores_below_one(finished_run):
    per_turn = pd.read_parquet(Path(finished_run.report_folder) / "per_turn.parquet")
    models = ("demo-advisor", "demo-listener")
    strings = {"demo-advisor": "attune-demo/advisor", "demo-listener": "attune-demo/listener"}
    rows = conversation_rows(finished_run, Selection(models, "default"))
    assert len(rows) == 3  # sample3
    for row in rows:
        for counts in row.models:
            turns = per_turn[
                (per_turn.conversation_id == row.conversation_id)
                & (per_turn.em_model == strings[counts.model])
            ]
            assert counts.turns_scored == len(turns)
            assert counts.wrong == {
                EMOTION: int((turns.emotion_f1 < 1).sum()),
                BEHAVIOUR: int((turns.binary_om_accuracy < 1).sum()),
                PREFERENCE: int(
                    ((turns.binary_human_accuracy < 1) | (turns.pairwise_accuracy < 1)).sum()
                ),
            }


def test_a_turn_is_wrong_exactly_where_a_mark_disagrees(finished_run):
    models = ("demo-advisor", "demo-listener")
    page = conversation_page(
        finished_run, first_conversation(finished_run), Selection(models, "default")
    )
    assert len(page.turns) == page.total_turns > 0
    for turn in page.turns:
        for index, model in enumerate(models):
            preference = [row.models[index] for row in turn.preference] + [
                row.models[index] for row in turn.comparisons
            ]
            disagrees = {
                EMOTION: not turn.models[index].emotion.agrees,
                BEHAVIOUR: any(not row.models[index].agrees for row in turn.behaviour),
                PREFERENCE: any(not mark.agrees for mark in preference),
            }
            assert turn.wrong_for(model) == {axis for axis, bad in disagrees.items() if bad}


def test_readers_of_the_report_read_it_from_the_report_page(
    finished_run, client, researcher, viewer
):
    conversation = first_conversation(finished_run)
    for user in (researcher, viewer):
        client.force_login(user)
        report = client.get(reverse("admin:evaluation_run_report", args=[finished_run.pk]))
        assert f'href="{turns_url(finished_run)}"' in report.text
        listing = client.get(turns_url(finished_run))
        assert listing.status_code == 200
        assert 'id="conversations"' in listing.text and "demo-listener: turns wrong" in listing.text
        assert conversation_url(finished_run, conversation) in listing.text
        page = client.get(conversation_url(finished_run, conversation) + "?a=demo-listener")
        assert page.status_code == 200
        assert 'class="turn"' in page.text and "agrees" in page.text


def test_reviewers_outsiders_and_other_studies_do_not(finished_run, client, reviewer, outsider):
    urls = [
        turns_url(finished_run),
        conversation_url(finished_run, first_conversation(finished_run)),
    ]
    client.force_login(reviewer)
    assert [client.get(url).status_code for url in urls] == [403, 403]
    # A researcher limited to another study: the run (over the demo study) is not theirs.
    elsewhere = make_staff("researcher", studies={make_study(slug="elsewhere"): "researcher"})
    client.force_login(elsewhere)
    assert [client.get(url).status_code for url in urls] == [404, 404]
    client.force_login(outsider)  # no staff account: the admin's login page
    assert [client.get(url).status_code for url in urls] == [302, 302]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("a=nobody", "Select a valid choice"),
        ("a=demo-listener&b=demo-listener&mode=default", "Choose two different models"),
        ("a=demo-listener&mode=default&wrong=demo-advisor", "must name a model shown"),
        ("a=demo-listener&mode=verbose", "Select a valid choice"),
    ],
)
def test_bad_choices_are_refused_with_the_reason(finished_run, researcher_client, query, message):
    page = researcher_client.get(turns_url(finished_run) + "?" + query)
    assert page.status_code == 400 and message in page.text
    assert 'id="conversations"' not in page.text


def test_a_conversation_the_run_did_not_answer_is_not_found(finished_run, researcher_client):
    assert researcher_client.get(conversation_url(finished_run, "no-such-id")).status_code == 404


def test_an_unfinished_run_has_no_turn_view(run_request, researcher_client):
    run = create_run(run_request(), actor_label="test")
    assert researcher_client.get(turns_url(run)).status_code == 404
