"""An Arabic study in a real browser on a phone: the page is <html lang="ar" dir="rtl">, the
consent and chat screens are in Arabic and laid out right to left (headings start at the right,
the participant's messages sit on the left side, as chat apps show them in RTL), and axe finds
nothing serious. The steps between consent and chat go through the API (their screens are the
Spanish test's concern)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from annotations.demo import ensure_demo_endpoints
from annotations.models import Participant, StudyStatus
from tests.e2e.steps import PHONE, Steps
from tests.factories import make_study, unique
from tests.participant.client import LiveTransport, ParticipantClient

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

CONSENT = "ستتحدث مع مساعد ذكاء اصطناعي لمدة عشرين دقيقة تقريبًا. يمكنك التوقف في أي وقت."


def arabic_study():
    endpoints = ensure_demo_endpoints()
    study = make_study(
        slug=unique("rtl-study"),
        title="دراسة تجريبية",
        status=StudyStatus.RECRUITING,
        recruitment="link",
        consent_text=CONSENT,
        topics=[{"category": "work", "subtopics": []}],
        languages=["ar"],
        default_language="ar",
        translations={"ar": {"topic_labels": {"work": "العمل"}}},
        min_turns=1,
        max_turns=2,
        completion_code="RTL-DONE",
    )
    study.model_pool.set([e for e in endpoints if e.model_name != "improver"])
    study.improver_endpoint = next(e for e in endpoints if e.model_name == "improver")
    study.save()
    return study


def starts_right(page: Page, selector: str) -> bool:
    """The element's text runs from the right edge of its box (RTL), not from the left."""
    return page.evaluate(
        """(selector) => {
          const element = document.querySelector(selector);
          const range = document.createRange();
          range.selectNodeContents(element);
          const text = range.getBoundingClientRect(), box = element.getBoundingClientRect();
          return box.right - text.right < 2 && text.left - box.left >= 0;
        }""",
        selector,
    )


def test_consent_and_chat_right_to_left(browser, platform: str, screenshots):
    context = browser.new_context(viewport=PHONE, locale="en-GB")  # the study decides: Arabic
    page = context.new_page()
    page.set_default_timeout(15_000)
    steps = Steps(screenshots)
    study = arabic_study()
    pid = unique("PIDAR").replace("-", "")

    page.goto(f"{platform}/s/{study.slug}/?PROLIFIC_PID={pid}")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    page.get_by_role("button", name="ابدأ").click()

    expect(page.get_by_role("heading", name="المعلومات والموافقة")).to_be_visible()
    expect(page.get_by_text(CONSENT)).to_be_visible()
    assert starts_right(page, "#screen-title")
    agree = page.get_by_role("button", name="أوافق على المشاركة").bounding_box()
    refuse = page.get_by_role("button", name="لا أوافق").bounding_box()
    assert (
        agree and refuse and (agree["y"] < refuse["y"] or agree["x"] > refuse["x"])
    )  # first on the right
    steps.capture(page, "consent-rtl")
    page.get_by_role("button", name="أوافق على المشاركة").click()
    expect(page.get_by_role("heading", name="معلومات عنك")).to_be_visible()

    # Profile, PANAS and topic through the API with the browser's own token, then back.
    stored = json.loads(page.evaluate(f"sessionStorage.getItem('attune:session:{study.slug}')"))
    api = ParticipantClient(LiveTransport(platform), study.slug, pid)
    api.token = stored["token"]
    api.onboard()
    page.reload()

    expect(page.get_by_role("heading", name="المحادثة")).to_be_visible()
    page.get_by_label("رسالتك").fill("أشعر بالتوتر بسبب العمل هذه الأيام.")
    page.get_by_role("button", name="إرسال").click()
    expect(page.get_by_role("heading", name="حول هذا الرد")).to_be_visible(timeout=20_000)
    mine = page.locator(".message-user").bounding_box()
    reply = page.locator(".message-assistant").bounding_box()
    assert mine and reply and mine["x"] < reply["x"] + 1  # the participant's side is the left
    assert page.evaluate("getComputedStyle(document.querySelector('main')).direction") == "rtl"
    steps.capture(page, "chat-rtl")
    steps.check()
    assert Participant.objects.get(study=study, prolific_pid=pid).language == "ar"
    context.close()
