"""A reply belongs to the server, not to the connection: on a phone, a reload in the middle of
a streaming reply, or the browser going offline and online again, and the participant sees the
same reply continue and end; it is stored once, from one model call (the local test server
counts them)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from annotations.models import AuditEntry, Turn, TurnStatus
from annotations.services.study_instrument import instrument_of
from tests.e2e import participant as act
from tests.e2e.drop_proxy import DroppingProxy
from tests.e2e.test_whole_session import upstream_study
from tests.factories import unique

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

STREAMING = ".message-assistant.streaming .message-text"
# Twelve words: the test server's reply quotes them, about 17 pieces at 0.25 s each.
MESSAGE = "My manager keeps moving my deadlines and I never know what comes"
REPLY = f"Test server reply to: {MESSAGE}"


def _chat_calls(openai_server, text: str) -> int:
    return sum(1 for body in openai_server.behaviour.requests if text in str(body["messages"][-1]))


def _start(page: Page, platform: str, openai_server) -> None:
    """Start a chat at ``platform`` and send a message; return in the middle of its reply."""
    openai_server.behaviour.reset()
    openai_server.behaviour.token_delay_s = 0.25
    study = upstream_study(openai_server)
    pid = unique("PIDRESUME").replace("-", "")
    act.start_chat(
        page,
        f"{platform}/s/{study.slug}/?PROLIFIC_PID={pid}&STUDY_ID=E2E&SESSION_ID=S1",
        instrument_of(study).panas_ids,
    )
    page.get_by_label("Your message").fill(MESSAGE)
    page.get_by_role("button", name="Send").click()
    # The middle of the reply: some of it is on screen, not all.
    expect(page.locator(STREAMING)).to_contain_text("Test server reply to: My")


def _stored_once(openai_server) -> str:
    turn = Turn.objects.get(user_message=MESSAGE)
    assert turn.status == TurnStatus.DONE
    assert _chat_calls(openai_server, MESSAGE) == 1  # no second model call
    replies = AuditEntry.objects.filter(action="annotations.turn.reply", target_id=str(turn.pk))
    assert replies.count() == 1  # stored once
    return turn.model_reply


def test_a_reload_in_the_middle_of_a_reply(phone: Page, platform: str, openai_server):
    _start(phone, platform, openai_server)
    phone.reload()
    # The same reply goes on after the reload, and ends.
    expect(phone.locator(STREAMING)).to_contain_text("Test server reply to: My")
    done = phone.locator(".message-assistant:not(.streaming) .message-text")
    expect(done).to_have_text(REPLY, timeout=30_000)
    assert _stored_once(openai_server) == REPLY
    expect(phone.get_by_text("could not be written")).to_have_count(0)


def test_offline_in_the_middle_of_a_reply(phone: Page, platform: str, openai_server):
    """The network drops (the open stream breaks: Chromium's offline emulation alone would
    leave it open) and the browser is offline; then both come back."""
    proxy = DroppingProxy(platform)
    try:
        _start(phone, proxy.url, openai_server)
        proxy.drop()
        phone.context.set_offline(True)
        _offline_until_the_reply_ends(phone, openai_server, proxy)
    finally:
        proxy.close()


def _offline_until_the_reply_ends(phone: Page, openai_server, proxy: DroppingProxy) -> None:
    deadline = time.monotonic() + 30  # the reply ends on the server, offline or not
    while not Turn.objects.filter(user_message=MESSAGE, status=TurnStatus.DONE).exists():
        assert time.monotonic() < deadline, "the reply did not end on the server"
        time.sleep(0.1)
    proxy.restore()
    phone.context.set_offline(False)
    done = phone.locator(".message-assistant:not(.streaming) .message-text")
    expect(done).to_have_text(REPLY, timeout=30_000)
    assert _stored_once(openai_server) == REPLY
    expect(phone.get_by_text("could not be written")).to_have_count(0)
