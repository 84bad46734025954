"""The checks participants see (issue 37, item 6), in a real browser on a phone, on the demo
study (offline demo models, a real Celery worker for the improved reply):

- a comprehension check right after consent, failed twice, ends on the screen-out page with
  the study's code; the participant is recorded screened out and takes no place;
- an attention check inside a reply's annotation step, answered otherwise than instructed,
  reaches QA's failed_attention_check flag.

Each new screen is checked with axe-core at phone and desktop widths."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from annotations.demo import ensure_demo_study
from annotations.models import (
    AuditEntry,
    Conversation,
    ConversationState,
    Participant,
    Study,
    TurnAnnotation,
)
from annotations.models.study import ATTENTION_OPTIONS
from annotations.qa.models import Flag
from annotations.qa.services.flagging import compute_flags
from annotations.services.comprehension import COMPREHENSION_FAILED, SUBMIT_ACTION
from annotations.services.places import place_counts
from annotations.services.study_instrument import instrument_of
from tests.e2e import participant as act
from tests.e2e.steps import Steps
from tests.factories import unique

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

QUESTIONS = [
    {
        "id": "task",
        "question": "What will you do in this study?",
        "options": [
            {
                "id": "chat",
                "text": "Chat with an AI assistant and answer questions about its replies",
            },
            {"id": "video", "text": "Watch a series of videos"},
        ],
        "answer": "chat",
    },
    {
        "id": "stop",
        "question": "Can you stop taking part at any time?",
        "options": [
            {"id": "yes", "text": "Yes, without giving a reason"},
            {"id": "no", "text": "No, I must finish the study"},
        ],
        "answer": "yes",
    },
]
# The English catalog's words for the attention check's options (frontend/src/i18n/locales).
ATTENTION_LABELS = {
    "strongly_agree": "Strongly agree",
    "agree": "Agree",
    "neutral": "Neither agree nor disagree",
    "disagree": "Disagree",
    "strongly_disagree": "Strongly disagree",
}


def _no_prolific_navigation(page: Page) -> None:
    """The exit page sends the participant to Prolific after a countdown: answered locally."""
    page.context.route(
        "https://app.prolific.com/**",
        lambda route: route.fulfill(body="<title>Prolific</title>", content_type="text/html"),
    )


def _choose(page: Page, question: str, option: str) -> None:
    page.get_by_role("group", name=question, exact=True).get_by_role(
        "radio", name=option, exact=True
    ).check()


def test_a_comprehension_check_failed_twice_ends_with_the_screen_out_code(
    phone: Page, platform: str, screenshots
):
    page, steps = phone, Steps(screenshots)
    _no_prolific_navigation(page)
    study = ensure_demo_study()
    Study.objects.filter(pk=study.pk).update(comprehension_questions=QUESTIONS)
    pid = unique("PIDCC").replace("-", "")
    page.goto(f"{platform}/s/{study.slug}/?PROLIFIC_PID={pid}")
    page.get_by_role("button", name="Start").click()
    page.get_by_role("button", name="I agree to take part").click()

    expect(page.get_by_role("heading", name="Check your understanding")).to_be_visible()
    expect(page.get_by_text("2 attempts left.")).to_be_visible()
    steps.capture(page, "comprehension")
    page.get_by_role("button", name="Check my answers").click()  # nothing answered yet
    expect(page.get_by_role("link", name="What will you do in this study?")).to_be_visible()
    steps.capture(page, "comprehension-missing")
    _choose(page, "What will you do in this study?", "Watch a series of videos")
    _choose(page, "Can you stop taking part at any time?", "Yes, without giving a reason")
    page.get_by_role("button", name="Check my answers").click()

    expect(page.get_by_role("alert")).to_contain_text("this is your last attempt")
    expect(page.get_by_text("1 attempt left.")).to_be_visible()
    steps.capture(page, "comprehension-last-attempt")
    person = Participant.objects.get(study=study, prolific_pid=pid)
    assert person.comprehension_attempts == 1 and person.screened_out_at is None

    _choose(page, "What will you do in this study?", "Watch a series of videos")
    _choose(page, "Can you stop taking part at any time?", "No, I must finish the study")
    page.get_by_role("button", name="Check my answers").click()

    expect(page.get_by_role("heading", name="Thank you for your interest")).to_be_visible()
    expect(page.locator("#exit-code")).to_have_text(study.screenout_code)
    page.get_by_role("button", name="Stay on this page").click()
    steps.capture(page, "screened-out")
    page.reload()  # the server's record decides: still screened out, still the code
    expect(page.locator("#exit-code")).to_have_text(study.screenout_code)
    steps.check()

    person.refresh_from_db()
    assert person.screened_out_at is not None
    assert person.screenout_reason == COMPREHENSION_FAILED
    assert person.comprehension_attempts == 2 and person.comprehension_passed_at is None
    conversation = Conversation.objects.get(participant=person)
    assert conversation.state == ConversationState.ABANDONED  # nothing waits for it
    attempts = AuditEntry.objects.filter(action=SUBMIT_ACTION, target_id=str(person.pk))
    assert sorted(e.data["attempt"] for e in attempts) == [1, 2]
    assert all(e.data["passed"] is False for e in attempts)
    assert place_counts(study).held == 0  # a screened-out participant takes no place


def test_an_attention_check_in_the_annotation_step_reaches_the_qa_flags(
    phone: Page, platform: str, screenshots
):
    page, steps = phone, Steps(screenshots)
    study = ensure_demo_study()
    Study.objects.filter(pk=study.pk).update(attention_check_turns=[1])
    pid = unique("PIDAC").replace("-", "")
    act.start_chat(
        page, f"{platform}/s/{study.slug}/?PROLIFIC_PID={pid}", instrument_of(study).panas_ids
    )
    page.get_by_label("Your message").fill("Work has been piling up and I cannot switch off.")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_role("heading", name="About this reply")).to_be_visible(timeout=20_000)

    check = page.get_by_role("group", name=re.compile(r"^For this question, choose"))
    expect(check).to_be_visible()
    legend = check.locator("legend").inner_text()
    instructed = next(k for k, label in ATTENTION_LABELS.items() if f"“{label}”" in legend)
    given = next(k for k in ATTENTION_OPTIONS if k != instructed)
    page.get_by_role("checkbox", name="No clear change").check()
    for question in act.behaviour_questions(page):
        act.answer_behaviour(page, question, "na", "na")
    act.wait_for_comparison(page)
    for question in act.comparison_questions(page):
        act.choose(page, question, None)
    check.get_by_role("radio", name=ATTENTION_LABELS[given], exact=True).check()
    steps.capture(page, "annotation-with-attention-check")
    page.get_by_role("button", name="Save my answers").click()
    expect(page.get_by_text("Your answers about the reply are saved.")).to_be_visible()
    steps.check()

    person = Participant.objects.get(study=study, prolific_pid=pid)
    conversation = Conversation.objects.get(participant=person)
    step = TurnAnnotation.objects.get(turn__conversation=conversation, turn__number=1)
    assert (step.attention_expected, step.attention_answer) == (instructed, given)
    compute_flags([conversation.pk], actor_label="test")
    flag = Flag.objects.get(
        conversation=conversation, source="automatic", flag_type="failed_attention_check"
    )
    assert flag.evidence["failed"] == [
        {"survey": "annotation", "item": "turn-1", "given": given, "expected": [instructed]}
    ]
