"""Withdrawal in the middle of the chat, on the demo study (offline demo provider): one button
on every page, a confirmation, then the withdrawn page; the database marks the participant
withdrawn and the open conversation abandoned. The model's identity never reaches the page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from annotations.demo import ensure_demo_study
from annotations.models import Conversation, ConversationState, Participant
from annotations.services.study_instrument import instrument_of
from tests.e2e import participant as act
from tests.e2e.steps import PHONE, Steps
from tests.factories import unique

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone_page(browser, platform) -> Page:
    context = browser.new_context(viewport=PHONE)  # the real CSP: axe-core comes in by CDP
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_a_participant_withdraws_during_the_chat(phone_page: Page, platform: str, screenshots):
    page, steps = phone_page, Steps(screenshots)
    study = ensure_demo_study()
    pid = unique("PIDWD").replace("-", "")
    page.goto(f"{platform}/s/{study.slug}/?PROLIFIC_PID={pid}&STUDY_ID=DEMO&SESSION_ID=S1")
    page.get_by_role("button", name="Start").click()
    page.get_by_role("button", name="I agree to take part").click()
    page.get_by_label("Your age in years").fill("51")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="How you feel before the chat")).to_be_visible()
    act.answer_panas(page, dict.fromkeys(instrument_of(study).panas_ids, 2))
    page.get_by_role("button", name="Continue").click()
    page.get_by_role("radio", name="Studies").check()
    page.get_by_role("button", name="Start the chat").click()

    page.get_by_label("Your message").fill("I am falling behind with my course and I feel ashamed.")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_role("heading", name="About this reply")).to_be_visible(timeout=20_000)
    steps.capture(page, "demo-reply")
    chat_html = page.content()

    page.get_by_role("button", name="Withdraw from the study").click()
    confirm = page.get_by_role("group", name="Withdraw from the study?")
    expect(confirm).to_be_visible()
    expect(page.get_by_role("heading", name="Withdraw from the study?")).to_be_focused()
    steps.capture(page, "withdraw-confirmation")
    confirm.get_by_role("button", name="Yes, withdraw").click()
    expect(page.get_by_role("heading", name="You have withdrawn")).to_be_visible()
    expect(page.get_by_role("button", name="Withdraw from the study")).to_have_count(0)
    steps.capture(page, "withdrawn")
    steps.check()

    person = Participant.objects.get(study=study, prolific_pid=pid)
    assert person.withdrawn and person.withdrawn_at is not None
    conversation = Conversation.objects.get(participant=person)
    assert conversation.state == ConversationState.ABANDONED
    page.reload()  # the server's record decides: still withdrawn after a reload
    expect(page.get_by_role("heading", name="You have withdrawn")).to_be_visible()

    endpoint = conversation.model_endpoint
    # A new tab starts from the link with no token of its own, and a Prolific id alone is no
    # proof of who is asking (anyone may know it): refused, and nothing of the session is shown.
    second_tab = page.context.new_page()
    second_tab.goto(f"{platform}/s/{study.slug}/?PROLIFIC_PID={pid}")
    second_tab.get_by_role("button", name="Start").click()
    expect(
        second_tab.get_by_text("This study was already started with your Prolific ID")
    ).to_be_visible()
    expect(second_tab.get_by_role("heading", name="Chat")).to_have_count(0)
    for shown in (chat_html, page.content(), second_tab.content()):
        for secret in (endpoint.alias, endpoint.litellm_model, endpoint.provider):
            assert not re.search(re.escape(secret), shown, re.IGNORECASE), secret
