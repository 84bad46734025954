"""The personal-details queue with the keyboard (issue 38, item 2), in a real browser: a
reviewer opens the queue with three findings, moves with j/k (the focus follows and stops at
the ends), accepts one with ``a`` and dismisses another with ``d``; each decision is stored, and
the page comes back with the remaining findings and the first of them focused. ``m`` then fills
the "missed span" form with the focused row's conversation and text. axe-core finds no serious
or critical violation on the queue."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from annotations.models import AuditEntry
from annotations.qa.models import FindingStatus, PersonalDetailFinding
from annotations.qa.services.personal_details import scan_conversation
from tests.e2e.steps import DESKTOP, Steps
from tests.factories import build_record, build_turn, make_conversation

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# One detail per turn: the queue lists them in turn order (field path, then position).
MESSAGES = (
    "mail me: kim.ho@example.net",
    "or call me on +44 20 7946 0958 after six",
    "my blog is https://kimho.example.org/diary",
)
DETAILS = ("kim.ho@example.net", "+44 20 7946 0958", "https://kimho.example.org/diary")


@pytest.fixture
def findings(study) -> list[PersonalDetailFinding]:
    """The three findings, in the queue's order."""
    turns = tuple(build_turn(n, user_message=m) for n, m in enumerate(MESSAGES, start=1))
    conversation = make_conversation(study, record=build_record(turns=turns))
    assert scan_conversation(conversation.pk) == 3
    found = list(
        PersonalDetailFinding.objects.order_by("field_path", "start").select_related("conversation")
    )
    texts = [m[f.start : f.end] for m, f in zip(MESSAGES, found, strict=True)]
    assert [t.strip() for t in texts] == list(DETAILS), texts
    return found


@pytest.fixture
def queue(browser, platform, reviewer) -> Page:
    """The reviewer's browser on the session's platform (shared with the other browser tests,
    so this test starts no server of its own), signed in through a session cookie."""
    client = Client()
    client.force_login(reviewer)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context = browser.new_context(viewport=DESKTOP, base_url=platform)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": platform}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def focused_row(page: Page, detail: str) -> None:
    """The focused element is the row of this detail."""
    expect(page.locator("tr.qa-finding:focus mark")).to_have_text(detail)


def test_a_reviewer_decides_findings_with_the_keyboard(queue: Page, findings, reviewer, tmp_path):
    email, phone, url = findings
    page = queue
    page.goto("/qa/personal-details/")
    rows = page.locator("tr.qa-finding")
    expect(rows).to_have_count(3)
    focused_row(page, DETAILS[0])  # the first finding has the focus on arrival

    steps = Steps(folder=tmp_path)
    steps.capture(page, "queue")
    steps.check()
    page.set_viewport_size(DESKTOP)

    for key, detail in (("j", 1), ("j", 2), ("j", 2), ("k", 1)):  # the last row is the end
        page.keyboard.press(key)
        focused_row(page, DETAILS[detail])

    page.keyboard.press("a")  # accept the phone number
    expect(page.get_by_text("Finding accepted.")).to_be_visible()
    expect(rows).to_have_count(2)
    focused_row(page, DETAILS[0])  # the page is back, on the first remaining finding

    page.keyboard.press("j")
    focused_row(page, DETAILS[2])
    page.keyboard.press("d")  # dismiss the URL
    expect(page.get_by_text("Finding dismissed.")).to_be_visible()
    expect(rows).to_have_count(1)
    focused_row(page, DETAILS[0])

    page.keyboard.press("m")  # a span the detectors missed, in the focused row's text
    expect(page.locator("#qa-missed-conversation")).to_have_value(str(email.conversation_id))
    expect(page.locator("#qa-missed-path")).to_have_value(email.field_path)
    expect(page.locator('#qa-missed input[name="start"]')).to_be_focused()

    statuses = dict(PersonalDetailFinding.objects.values_list("pk", "status"))
    assert statuses == {
        email.pk: FindingStatus.PENDING,
        phone.pk: FindingStatus.ACCEPTED,
        url.pk: FindingStatus.DISMISSED,
    }
    decided = AuditEntry.objects.filter(action__startswith="qa.personal_detail.")
    assert sorted(decided.values_list("target_id", flat=True)) == sorted(
        [str(phone.pk), str(url.pk)]
    )
    assert {entry.actor for entry in decided} == {reviewer}
