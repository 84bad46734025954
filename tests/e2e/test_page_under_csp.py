"""The built app runs under the platform's real Content-Security-Policy (script-src 'self', no
inline script). axe-core comes in through the DevTools protocol (steps.py), so the browser
tests that check accessibility need no bypass either (the whole-session test still sets one)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from annotations.demo import ensure_demo_study
from tests.e2e.steps import PHONE

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_the_app_starts_under_the_content_security_policy(browser, platform):
    study = ensure_demo_study()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    problems: list[str] = []
    page.on(
        "console",
        lambda message: problems.append(message.text) if message.type == "error" else None,
    )
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        response = page.goto(f"{platform}/s/{study.slug}/?PROLIFIC_PID=CSPCHECK1")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.get_by_role("button", name="Start").click()
        expect(page.get_by_role("heading", name="Information and consent")).to_be_visible()
    finally:
        context.close()
    assert not [p for p in problems if "Content Security Policy" in p or "Refused" in p], problems
