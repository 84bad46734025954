"""Issue 40, item 7, in a real browser: a researcher opens a finished run's report, follows it
to the run's conversations turn by turn, chooses two models side by side, one axis and "only
turns got wrong by" one of them, and sees exactly the turns the service says that model got
wrong there, each with its disagreement marked in that model's column."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from playwright.sync_api import expect

from evaluation.services.creation import create_run
from evaluation.services.inline import run_inline
from evaluation.services.turn_marks import AXIS_LABELS, MARKED_AXES
from evaluation.services.turn_view import Selection, conversation_page
from tests import worker_process
from tests.e2e.servers import running_uvicorn
from tests.evaluation.conftest import (  # noqa: F401 (fixtures: scratch folders, Redis prefix, demo release)
    demo_models,
    demo_release,
    evaluation_dirs,
    redis_prefix,
    run_request,
)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
DESKTOP = {"width": 1366, "height": 900}
MODELS = ("demo-advisor", "demo-listener")


def a_filter_that_leaves_some_turns(run):
    """(conversation, axis, model, turns kept): a choice that keeps some turns but not all, so
    the filter visibly does something. The demo models are wrong somewhere on every axis."""
    for conversation_id in sorted(set(run.units.values_list("conversation_id", flat=True))):
        for axis in MARKED_AXES:
            for model in MODELS:
                selection = Selection(MODELS, "default", axis, model)
                page = conversation_page(run, conversation_id, selection)
                kept = [turn.turn_number for turn in page.turns]
                if 0 < len(kept) < page.total_turns:
                    return conversation_id, axis, model, kept
    raise AssertionError("no conversation where a model got some turns, not all, wrong")


def test_a_researcher_reads_two_models_turn_by_turn(
    browser,
    run_request,  # noqa: F811 (the fixture imported above)
    demo_models,  # noqa: F811
    researcher,
    screenshots,
):
    run = in_a_thread(
        lambda: run_inline(
            create_run(
                run_request(models=demo_models, subsample="sample3"),
                actor_label="test",
                inline=True,
            ).pk,
            worker="test@host",
        )
    )
    conversation_id, axis, model, kept = a_filter_that_leaves_some_turns(run)
    print(f"filter: {conversation_id} {axis} wrong by {model}: turns {kept}")
    client = Client()
    client.force_login(researcher)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value

    with running_uvicorn({"DATABASE_URL": worker_process.test_database_url()}) as base_url:
        context = browser.new_context(viewport=DESKTOP)
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base_url}]
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        try:
            page.goto(f"{base_url}/admin/evaluation/evaluationrun/{run.pk}/report/")
            page.get_by_role("link", name="Turn by turn").click()
            expect(page.locator("#conversations")).to_be_visible()
            page.get_by_role("link", name=conversation_id).click()
            expect(page.locator("section.turn")).to_have_count(len(run_turns(run, conversation_id)))

            page.locator("#id_a").select_option(MODELS[0])
            page.locator("#id_b").select_option(MODELS[1])
            page.locator("#id_axis").select_option(axis)
            page.locator("#id_wrong").select_option(model)
            page.get_by_role("button", name="Show").click()

            sections = page.locator("section.turn")
            expect(sections).to_have_count(len(kept))
            assert [int(n) for n in sections.evaluate_all(_turn_numbers)] == kept
            column = MODELS.index(model)
            for number in kept:
                section = page.locator(f"#turn-{number}")
                expect(section.get_by_text(f"{model} got wrong:")).to_contain_text(
                    AXIS_LABELS[axis]
                )
                headings = section.get_by_role("heading", level=3)
                expect(headings).to_have_count(1)  # one axis shown
                expect(headings).to_have_text(_heading_of(axis))
                header = section.locator("table").first.locator("thead th")
                expect(header.nth(header.count() - 2 + column)).to_have_text(model)
                disagreeing = section.locator(
                    f"table tbody tr td:nth-last-child({2 - column}) .mark.disagree"
                )
                assert disagreeing.count() >= 1
            page.screenshot(path=screenshots / "filtered.png", full_page=True)
        finally:
            context.close()


def in_a_thread(work):
    """``work()`` in a thread of its own: planning and running a run start event loops of their
    own, which cannot start on this thread, where Playwright's sync API keeps one running."""

    def in_thread():
        try:
            return work()
        finally:
            connections.close_all()  # this thread's connection, before the database is flushed

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(in_thread).result()


def run_turns(run, conversation_id):
    return conversation_page(run, conversation_id, Selection(MODELS, "default")).turns


def _heading_of(axis: str) -> str:
    return {
        "emotion": "Emotion recognition",
        "behaviour": "Behaviour classification: did the model do it?",
        "preference": "Preference prediction: should it have?",
    }[axis]


_turn_numbers = "sections => sections.map(s => s.dataset.turn)"
