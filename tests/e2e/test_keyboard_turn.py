"""A whole turn with the keyboard alone (issue 12, part 7): in the chat, Tab to the message
box, type, Tab to Send and press Enter; the reply arrives and its questions take the focus;
tag a feeling (Space) with its intensity (arrow keys), answer every behaviour question, edit
the reply, make every A/B choice, save with Enter, and land in the next turn's message box.
No click, no fill, no focus from script. At every focus stop the focus must be visible, on
screen and not covered. The annotation stored is the one given with the keys."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from annotations.demo import ensure_demo_endpoints
from annotations.interchange.to_records import conversation_to_record
from annotations.models import Conversation, Participant, StudyStatus
from annotations.services.study_instrument import instrument_of
from tests.e2e import participant as act
from tests.e2e.keyboard import KeyboardWalk, named, radio_of
from tests.e2e.steps import DESKTOP
from tests.factories import make_study, unique

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MESSAGE = "My manager moved my deadline again and I feel stuck."
# The same walk under the support notice (in the page's flow, under the message that raised
# it): it must never cover the control that has the focus.
RISKY = "My manager moved my deadline again and honestly I don\u2019t want to be alive anymore."
EDITED = "That sounds exhausting. What would help most right now?"
NEXT = "Thanks."
ANSWERS = ("Yes", "No", "Not applicable")  # the order of each yes/no row
REPLY_WAIT_MS = 30_000


@pytest.fixture
def page(browser, platform) -> Page:
    context = browser.new_context(viewport=DESKTOP)  # the real CSP
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def open_chat(page: Page, platform: str) -> tuple[str, object]:
    """Consent, profile, PANAS and topic (not the subject here): the chat is open."""
    endpoints = {e.model_name: e for e in ensure_demo_endpoints()}
    study = make_study(
        slug=unique("e2e-keys"),
        status=StudyStatus.RECRUITING,
        recruitment="link",  # its PROLIFIC_PID is made up, not Prolific's form
        min_turns=1,
        max_turns=3,
        topics=[{"category": "work", "subtopics": []}],
        improver_endpoint=endpoints["improver"],
    )
    study.model_pool.set([endpoints["listener"]])
    pid = unique("PIDKEYS").replace("-", "")
    act.start_chat(
        page,
        f"{platform}/s/{study.slug}/?PROLIFIC_PID={pid}&STUDY_ID=E2E&SESSION_ID=S1",
        instrument_of(study).panas_ids,
        age="41",
    )
    expect(page.get_by_role("heading", name="Chat", exact=True)).to_be_focused()
    return pid, study


def answer(walk: KeyboardWalk, choice: int) -> dict:
    """Space checks the group's first radio, each ArrowRight the next one."""
    return walk.press("Space", *["ArrowRight"] * choice)


@pytest.mark.parametrize("message", [MESSAGE, RISKY], ids=["plain", "under-the-support-notice"])
def test_one_whole_turn_with_the_keyboard_alone(page: Page, platform: str, message: str):
    pid, study = open_chat(page, platform)
    walk = KeyboardWalk(page)

    # -- the message ------------------------------------------------------------------------
    walk.tab_to(named("Your message", "textarea"), "the message box")
    page.keyboard.type(message)
    walk.tab_to(named("Send", "button"), "Send")
    page.keyboard.press("Enter")
    # The reply arrives; its questions are the next step and their heading takes the focus.
    expect(page.get_by_role("heading", name="About this reply")).to_be_focused(
        timeout=REPLY_WAIT_MS
    )
    notices = page.get_by_role("alert", name="Support is available")
    expect(notices).to_have_count(1 if message == RISKY else 0)

    # -- 1: a feeling and its intensity -------------------------------------------------------
    walk.tab_to(named("Nervous", "input"), "the Nervous chip")
    assert walk.press("Space")["checked"]
    walk.tab_to(radio_of("How strongly do you feel nervous?"), "the intensity scale")
    stop = answer(walk, 3)
    assert stop["checked"] and stop["name"].startswith("4"), stop
    intensity = page.get_by_role("group", name="How strongly do you feel nervous?")
    expect(act.option(intensity, "4")).to_be_checked()

    # -- 2: every behaviour question: did it, should it have ---------------------------------
    questions = act.behaviour_questions(page)
    given = []
    for i, question in enumerate(questions):
        observed, preferred = i % 3, (i + 1) % 3
        walk.tab_to(radio_of(question, "Did it?"), f"'Did it?' of {question!r}")
        answer(walk, observed)
        walk.tab_to(radio_of(question, "Should it have?"), f"'Should it have?' of {question!r}")
        answer(walk, preferred)
        given.append((ANSWERS[observed], ANSWERS[preferred]))

    # -- 3: the reply as the participant would have liked it -----------------------------------
    walk.tab_to(lambda s: s["id"] == "annotation-edit", "the reply editor")
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type(EDITED)

    # -- 4: the A/B choices (the second reply is written meanwhile by the worker) -------------
    expect(page.get_by_role("figure", name="Reply A")).to_be_visible(timeout=REPLY_WAIT_MS)
    comparisons = act.comparison_questions(page)
    winners = []
    for i, question in enumerate(comparisons):
        walk.tab_to(radio_of(question), f"the choice of {question!r}")
        answer(walk, i % 2)
        winners.append("AB"[i % 2])

    # -- save, and the next turn's message box --------------------------------------------------
    walk.tab_to(named("Save my answers", "button"), "Save my answers")
    page.keyboard.press("Enter")
    message_box = page.get_by_label("Your message")
    expect(message_box).to_be_focused(timeout=REPLY_WAIT_MS)
    expect(page.get_by_role("heading", name="About this reply")).to_have_count(0)
    expect(
        page.get_by_role("status").filter(has_text="Your answers about the reply are saved")
    ).to_be_visible()
    page.keyboard.type(NEXT)  # the box is open for the next message
    expect(message_box).to_have_value(NEXT)
    expect(page.get_by_role("button", name="Send")).to_have_attribute("aria-disabled", "false")
    walk.stops.append(walk.focused())
    if message == RISKY:  # still on screen, above the reply it came before
        expect(notices).to_be_in_viewport()

    assert not walk.problems(), f"focus not visible, off screen or covered at: {walk.problems()}"

    # -- what was stored is what the keys gave ---------------------------------------------------
    conversation = Conversation.objects.get(participant=Participant.objects.get(prolific_pid=pid))
    (turn,) = conversation_to_record(conversation).turns
    assert turn.user_message == message
    assert [(t.emotion, t.intensity) for t in turn.mood_tags] == [("Nervous", 4)]
    values = {"Yes": "yes", "No": "no", "Not applicable": "na"}
    wording = {q.participant_wording: q.id for q in instrument_of(study).behaviour_questions}
    assert [
        (j.question_id, j.observed, j.preferred) for j in turn.annotations.binary_judgements
    ] == [(wording[q], values[o], values[p]) for q, (o, p) in zip(questions, given, strict=True)]
    assert turn.annotations.human_edited == EDITED
    assert [c.winner for c in turn.annotations.pairwise_comparisons] == winners
