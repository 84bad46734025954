"""A participant on a phone (390x844 and 320x568, touch) types a risk message with a curly
apostrophe, as phones do: the support notice appears in view right under that message and is
announced; it never covers the reply being rated or the controls of the step, wherever the
page is scrolled (bounding boxes); all of it, Withdraw included, can be reached and tapped;
"Hide this message" leaves a one-line way back and is remembered across a reload; the chat
still answers, the QA risk flag exists and the study's safety contact is emailed (within a
minute, by the Celery worker) with a link to QA and never the message. Every step is checked
with axe-core under the real Content-Security-Policy, at the phone's size and on a desktop."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from annotations.demo import ensure_demo_endpoints
from annotations.models import Conversation, Participant, StudyStatus
from annotations.qa.models import Flag
from annotations.qa.services.risk_alerts import conversation_link
from annotations.services.study_instrument import instrument_of
from tests.e2e import participant as act
from tests.e2e.steps import Steps
from tests.factories import make_study, unique

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

RISK_MESSAGE = "I don\u2019t want to be alive anymore"
SUPPORT = "If you are in danger, call 112 now. Samaritans: 116 123, any time, free."
CONTACT = "lead-researcher@example.org"
ALERT_WITHIN_S = 60
ANY_IMPACT = ("minor", "moderate", "serious", "critical")  # axe clean, not only of the worst
PHONES = {"390x844": {"width": 390, "height": 844}, "320x568": {"width": 320, "height": 568}}
# The notice is the next element after the participant's message, inside the same turn.
FOLLOWS_DIRECTLY = """(place, message) =>
  message.nextElementSibling === place && place.closest("li") === message.closest("li")"""
# Scrolls the page from top to bottom, half a window at a time, and at each stop measures, in
# the window's coordinates, the notice (what its place holds, full or collapsed) against the
# reply being rated and every control of the step (the questions' panel, the message box and
# its buttons). Returns each intersection with its area. Three frames after each scroll let
# anything that follows the scroll (a pinned box) settle first.
_OVERLAPS = """async () => {
  const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(done))));
  const notice = [...document.querySelectorAll(".support-place > *")];
  const work = [
    ["the reply being rated", document.querySelector(".turn:last-child .message-assistant")],
    ...[...document.querySelectorAll(".annotation button, .annotation label, .annotation textarea, .composer button, .composer textarea")]
      .map((el) => [`${el.tagName.toLowerCase()} "${(el.innerText || el.id).trim().slice(0, 30)}"`, el]),
  ].filter(([, el]) => el && el.getClientRects().length);
  const found = [];
  const step = Math.max(50, Math.floor(innerHeight / 2));
  const last = document.documentElement.scrollHeight - innerHeight;
  for (let y = 0; ; y = Math.min(y + step, last)) {
    window.scrollTo(0, y);
    await frames();
    for (const box of notice) {
      const n = box.getBoundingClientRect();
      for (const [what, el] of work) {
        const r = el.getBoundingClientRect();
        const w = Math.min(n.right, r.right) - Math.max(n.left, r.left);
        const h = Math.min(n.bottom, r.bottom) - Math.max(n.top, r.top);
        if (w > 0.5 && h > 0.5) found.push({ scrollY: Math.round(scrollY), what, overlap: `${Math.round(w)}x${Math.round(h)} px` });
      }
    }
    if (y >= last) break;
  }
  return found;
}"""
# Notes where the notice is, and what has the focus, two frames after it appears.
_WATCH_FOR_THE_NOTICE = """() => {
  window.attuneNoticeAppeared = null;
  const watch = new MutationObserver(() => {
    const notice = document.querySelector(".support-place > *");
    if (!notice) return;
    watch.disconnect();
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const r = notice.getBoundingClientRect();
      const focus = notice.contains(document.activeElement) ? "notice" : document.activeElement?.tagName;
      window.attuneNoticeAppeared = { top: r.top, bottom: r.bottom, window: innerHeight, focus };
    }));
  });
  watch.observe(document.body, { childList: true, subtree: true });
}"""
# A control is reachable when, scrolled into view, it is the element a finger lands on at its
# centre, and the notice shows all of itself (nothing hidden in a scroll box of its own).
_HIT = """(el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const inWindow = r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  const box = el.closest(".support-place > *");
  const clipped = box ? box.scrollHeight > box.clientHeight + 1 : false;
  return { inWindow, onTop: hit === el || el.contains(hit), clipped };
}"""


def waited_for(find, within_s: float):
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        found = find()
        if found:
            return found
        time.sleep(0.5)
    return find()


def assert_reachable(page: Page, name: str) -> None:
    control = page.locator(".support-place").get_by_role("button", name=name)
    control.scroll_into_view_if_needed()
    reach = control.evaluate(_HIT)
    assert reach == {"inWindow": True, "onTop": True, "clipped": False}, (name, reach)


def assert_work_clear(page: Page, when: str) -> None:
    overlaps = page.evaluate(_OVERLAPS)
    worst: dict[str, dict] = {}  # each element once, at its largest overlap
    for found in overlaps:
        w, h = (int(v) for v in found["overlap"].split()[0].split("x"))
        if w * h > worst.get(found["what"], {}).get("area", 0):
            worst[found["what"]] = {**found, "area": w * h}
    assert not overlaps, (
        f"{when}: the support notice covers the work {len(overlaps)} times; "
        f"at most: {sorted(worst.values(), key=lambda f: -f['area'])[:6]}"
    )


@pytest.mark.parametrize("size", list(PHONES.values()), ids=list(PHONES))
def test_a_risk_message_on_a_phone(
    browser, platform: str, email_folder: Path, screenshots: Path, size: dict
):
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
    # The real CSP (no bypass), a touch screen.
    context = browser.new_context(viewport=size, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    folder = screenshots / f"{size['width']}x{size['height']}"
    folder.mkdir(exist_ok=True)
    steps = Steps(folder, phone=size, blocking=ANY_IMPACT)
    try:
        pid = unique("PIDRISK").replace("-", "")
        act.start_chat(
            page,
            f"{platform}/s/{study.slug}/?PROLIFIC_PID={pid}&STUDY_ID=E2E&SESSION_ID=S1",
            instrument_of(study).panas_ids,
        )

        page.get_by_label("Your message").fill(RISK_MESSAGE)
        page.evaluate(_WATCH_FOR_THE_NOTICE)
        page.get_by_role("button", name="Send").tap()
        # Shown in view and announced by screen readers, without taking the focus.
        notice = page.get_by_role("alert", name="Support is available")
        expect(notice).to_be_visible(timeout=20_000)
        expect(notice).to_contain_text(SUPPORT)
        # Where it was when it appeared (the reply's questions take the focus soon after).
        appeared = page.wait_for_function("window.attuneNoticeAppeared").json_value()
        assert appeared["top"] >= 0 and appeared["bottom"] <= appeared["window"] + 1, appeared
        assert appeared["focus"] != "notice", appeared
        place = page.locator(".support-place")
        message = page.locator(".message-user", has_text="alive anymore")
        assert place.evaluate(FOLLOWS_DIRECTLY, message.element_handle())
        steps.capture(page, "risk-notice")

        # The chat goes on: the reply arrives and its questions follow.
        questions = page.get_by_role("heading", name="About this reply")
        expect(questions).to_be_focused(timeout=20_000)
        act.wait_for_comparison(page)  # the step's last controls are on the page
        assert page.evaluate("!document.activeElement?.closest('.support-place')")
        assert_work_clear(page, "with the questions")
        page.locator(".turn:last-child .message-user").scroll_into_view_if_needed()
        page.screenshot(path=folder / "viewport-reply-under-the-notice.png")
        for name in ("Take a break", "Hide this message", "Withdraw from the study"):
            assert_reachable(page, name)
        # Withdraw opens its confirmation where it is; going back changes nothing.
        place.get_by_role("button", name="Withdraw from the study").tap()
        expect(page.get_by_role("heading", name="Withdraw from the study?")).to_be_in_viewport()
        steps.capture(page, "risk-notice-withdraw-asked")
        page.get_by_role("button", name="No, go back").tap()
        steps.capture(page, "risk-notice-questions")

        # Hidden: a one-line way back stays in its place, and a reload remembers the choice.
        place.get_by_role("button", name="Hide this message").tap()
        expect(page.get_by_role("alert")).to_have_count(0)
        back = place.get_by_role("button", name="Show the support resources")
        expect(back).to_be_focused()
        page.screenshot(path=folder / "viewport-hidden.png")
        steps.capture(page, "risk-notice-hidden")
        page.reload()
        expect(questions).to_be_visible()
        expect(back).to_be_visible()
        expect(page.get_by_role("region", name="Support is available")).to_have_count(0)
        assert_work_clear(page, "hidden, after a reload")
        steps.capture(page, "risk-notice-hidden-after-reload")
        back.tap()
        shown = page.get_by_role("region", name="Support is available")
        expect(shown).to_contain_text(SUPPORT)
        expect(shown.get_by_role("heading", name="Support is available")).to_be_focused()
        assert_work_clear(page, "shown again")
        steps.capture(page, "risk-notice-shown-again")
        steps.check()
    finally:
        context.close()

    conversation = Conversation.objects.get(participant=Participant.objects.get(prolific_pid=pid))
    flag = waited_for(
        lambda: Flag.objects.filter(conversation=conversation, flag_type="risk_signal").first(),
        ALERT_WITHIN_S,
    )
    assert flag is not None and flag.severity == "critical"
    link = conversation_link(conversation.pk).split("/qa/")[1]
    emails = waited_for(
        lambda: [p for p in email_folder.glob("*.log") if link in p.read_text()], ALERT_WITHIN_S
    )
    text = "\n".join(path.read_text() for path in emails)
    assert CONTACT in text
    assert "alive" not in text  # never the message
