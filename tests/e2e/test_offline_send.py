"""A message sent offline (issue 39, "Done when" (d)), on a phone viewport: the browser goes
offline, the participant sends; the app says the message waits for a connection (no error, no
endless spinner); back online, it goes by itself and is delivered once: one turn stored and
one call to the chat model (the local OpenAI-compatible test server counts them)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from annotations.demo import ensure_demo_endpoints
from annotations.models import StudyStatus, Turn
from annotations.services.study_instrument import instrument_of
from tests.e2e import participant as act
from tests.e2e.servers import KEY_ENV
from tests.e2e.steps import PHONE, Steps
from tests.factories import make_study, make_test_server_endpoint, unique

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MESSAGE = "My train was cancelled again and I missed the meeting."
WAITING = (
    "Waiting for a connection: your message is saved and will be sent when you are back online."
)


@pytest.fixture
def phone_page(browser, platform) -> Page:
    context = browser.new_context(viewport=PHONE, has_touch=True)  # the real CSP
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def _study(openai_server):
    chat_model = make_test_server_endpoint(
        openai_server.base_url, KEY_ENV, alias=unique("e2e-offline"), timeout_s=10.0
    )
    study = make_study(
        slug=unique("e2e-offline"),
        status=StudyStatus.RECRUITING,
        recruitment="link",  # its PROLIFIC_PID is made up, not Prolific's form
        topics=[{"category": "work", "subtopics": []}],
        min_turns=1,
        max_turns=3,
    )
    study.model_pool.set([chat_model])
    study.improver_endpoint = next(e for e in ensure_demo_endpoints() if e.model_name == "improver")
    study.save()
    return study


def test_a_message_sent_offline_is_delivered_once_when_online(
    phone_page: Page, platform: str, openai_server, screenshots
):
    page, steps = phone_page, Steps(screenshots)
    openai_server.behaviour.reset()
    study = _study(openai_server)
    pid = unique("PIDOFF").replace("-", "")
    link = f"{platform}/s/{study.slug}/?PROLIFIC_PID={pid}&STUDY_ID=E2E&SESSION_ID=S1"
    act.start_chat(page, link, instrument_of(study).panas_ids)
    box = page.get_by_label("Your message")
    expect(box).to_be_editable()

    page.context.set_offline(True)
    box.fill(MESSAGE)
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text(WAITING)).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)  # no error box, let alone two
    expect(page.get_by_text("Sending your message.")).to_have_count(0)  # no endless spinner
    expect(box).to_have_value(MESSAGE)  # nothing typed is lost
    steps.capture(page, "waiting-for-a-connection")
    assert openai_server.behaviour.request_count == 0
    assert not Turn.objects.filter(conversation__participant__prolific_pid=pid).exists()

    page.context.set_offline(False)  # the browser fires "online": the outbox sends it
    expect(page.get_by_role("heading", name="About this reply")).to_be_visible(timeout=20_000)
    expect(page.get_by_text(WAITING)).to_have_count(0)
    expect(page.get_by_role("alert")).to_have_count(0)  # no stale network error
    conversation = page.get_by_role("list", name="Conversation")
    expect(conversation.get_by_text(MESSAGE, exact=True)).to_have_count(1)
    expect(box).to_have_value("")
    steps.capture(page, "delivered")
    steps.check()

    turns = list(Turn.objects.filter(conversation__participant__prolific_pid=pid))
    assert [turn.user_message for turn in turns] == [MESSAGE]
    assert openai_server.behaviour.request_count == 1
