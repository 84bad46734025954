"""A participant on a phone types a risk message with a curly apostrophe, as phones do: the
support notice appears in view and is announced, stays in view while they scroll to the
questions, the chat still answers, the QA risk flag exists and the study's safety contact is
emailed (within a minute, by the Celery worker) with a link to QA and never the message.
Every step is checked with axe-core under the real Content-Security-Policy."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from annotations.demo import ensure_demo_endpoints
from annotations.models import Conversation, Participant, StudyStatus
from annotations.qa.models import Flag
from annotations.qa.services.risk_alerts import conversation_link
from annotations.services.study_instrument import instrument_of
from tests.e2e import participant as act
from tests.e2e.steps import PHONE, Steps
from tests.factories import make_study, unique

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

RISK_MESSAGE = "I don\u2019t want to be alive anymore"
SUPPORT = "If you are in danger, call 112 now. Samaritans: 116 123, any time, free."
CONTACT = "lead-researcher@example.org"
ALERT_WITHIN_S = 60
# The notice is the next element after the participant's message, inside the same turn.
FOLLOWS_DIRECTLY = """(notice, message) => {
  const place = notice.closest(".support-place");
  return message.nextElementSibling === place && place.closest("li") === message.closest("li");
}"""


def waited_for(find, within_s: float):
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        found = find()
        if found:
            return found
        time.sleep(0.5)
    return find()


def test_a_risk_message_on_a_phone(browser, platform: str, email_folder: Path, screenshots):
    endpoints = {e.model_name: e for e in ensure_demo_endpoints()}
    study = make_study(
        slug=unique("e2e-risk"),
        status=StudyStatus.RECRUITING,
        recruitment="link",  # its PROLIFIC_PID is made up, not Prolific's form
        support_resources=SUPPORT,
        safety_contacts=CONTACT,
        topics=[{"category": "work", "subtopics": []}],
        min_turns=1,
        max_turns=3,
        improver_endpoint=endpoints["improver"],
    )
    study.model_pool.set([endpoints["listener"]])
    context = browser.new_context(viewport=PHONE)  # the real CSP: no bypass
    page = context.new_page()
    page.set_default_timeout(15_000)
    steps = Steps(screenshots)
    try:
        pid = unique("PIDRISK").replace("-", "")
        act.start_chat(
            page,
            f"{platform}/s/{study.slug}/?PROLIFIC_PID={pid}&STUDY_ID=E2E&SESSION_ID=S1",
            instrument_of(study).panas_ids,
        )

        message_box = page.get_by_label("Your message")
        message_box.fill(RISK_MESSAGE)
        page.get_by_role("button", name="Send").click()
        notice = page.get_by_role("alert", name="Support is available")
        expect(notice).to_be_visible(timeout=20_000)
        expect(notice).to_contain_text(SUPPORT)
        expect(notice).to_be_in_viewport()
        assert notice.get_attribute("role") == "alert"  # announced by screen readers
        # Right under the message that raised it: next in the document, in the same turn.
        message = page.locator(".message-user", has_text="alive anymore")
        assert notice.evaluate(FOLLOWS_DIRECTLY, message.element_handle())
        # The chat goes on: the reply arrives and its questions follow.
        expect(page.get_by_role("heading", name="About this reply")).to_be_visible(timeout=20_000)
        assert page.evaluate("!document.activeElement?.closest('.support-banner')")
        steps.capture(page, "risk-notice")
        # Scrolled down to the questions, the notice is still on screen (pinned to the top
        # edge, its place under the message scrolled away), and it is still that message's.
        page.get_by_role("heading", name="About this reply").scroll_into_view_if_needed()
        page.mouse.wheel(0, 2000)
        expect(notice).to_be_in_viewport()
        expect(notice).to_have_class(re.compile(r"\bpinned-top\b"))
        assert notice.evaluate(FOLLOWS_DIRECTLY, message.element_handle())
        steps.capture(page, "risk-notice-scrolled")
        # Back up at its place under the message, it is in that place again.
        page.locator(".support-place").scroll_into_view_if_needed()
        expect(notice).not_to_have_class(re.compile(r"\bpinned"))
        expect(notice).to_be_in_viewport()
        page.get_by_role("button", name="Hide this message").click()
        expect(page.get_by_role("alert", name="Support is available")).to_have_count(0)
        expect(page.get_by_role("button", name="Show the support resources")).to_be_visible()
        steps.capture(page, "risk-notice-hidden")
        steps.check()
    finally:
        context.close()

    conversation = Conversation.objects.get(participant=Participant.objects.get(prolific_pid=pid))
    flag = waited_for(
        lambda: Flag.objects.filter(conversation=conversation, flag_type="risk_signal").first(),
        ALERT_WITHIN_S,
    )
    assert flag is not None and flag.severity == "critical"
    emails = waited_for(lambda: list(email_folder.glob("*.log")), ALERT_WITHIN_S)
    text = "\n".join(path.read_text() for path in emails)
    assert CONTACT in text and conversation_link(conversation.pk).split("/qa/")[1] in text
    assert "alive" not in text  # never the message
