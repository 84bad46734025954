"""What a participant does on each screen of the app, as Playwright steps. Questions are
found by the wording the API sends, the way a person (or a screen reader) finds them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Locator, Page, Response, expect

REPLY_WAIT_MS = 30_000


def option(group: Locator, starts_with: str) -> Locator:
    return group.get_by_role("radio", name=re.compile(rf"^{re.escape(starts_with)}\b"))


def answer_scale(page: Page, legend: str, value: int) -> None:
    group = page.get_by_role("group", name=legend, exact=True)
    option(group, str(value)).check()


def answer_panas(page: Page, items: dict[str, int]) -> None:
    for item, value in items.items():
        answer_scale(page, item, value)


def start_chat(
    page: Page,
    study_url: str,
    panas_ids: tuple[str, ...],
    *,
    age: str = "34",
    topic: str = "Work",
    panas: int = 3,
) -> None:
    """From the study link to the open chat: start, consent, the age alone, the pre-PANAS
    (every item ``panas``) and the topic."""
    page.goto(study_url)
    page.get_by_role("button", name="Start").click()
    page.get_by_role("button", name="I agree to take part").click()
    page.get_by_label("Your age in years").fill(age)
    page.get_by_role("button", name="Continue").click()
    answer_panas(page, dict.fromkeys(panas_ids, panas))
    page.get_by_role("button", name="Continue").click()
    page.get_by_role("radio", name=topic).check()
    page.get_by_role("button", name="Start the chat").click()


def tag_feeling(page: Page, emotion: str, intensity: int) -> None:
    page.get_by_role("checkbox", name=re.compile(rf"^{emotion}\b")).check()
    answer_scale(page, f"How strongly do you feel {emotion.lower()}?", intensity)


LABELS = {"yes": "Yes", "no": "No", "na": "Not applicable"}


def behaviour_questions(page: Page) -> list[str]:
    """The legends of the turn's behaviour questions, in the order shown."""
    return page.locator("fieldset.behaviour > legend").all_inner_texts()


def answer_behaviour(page: Page, question: str, observed: str, preferred: str) -> None:
    group = page.get_by_role("group", name=question, exact=True)
    for part, answer in (("Did it?", observed), ("Should it have?", preferred)):
        radios = group.get_by_role("radiogroup", name=part)
        radios.get_by_role("radio", name=LABELS[answer], exact=True).check()


def wait_for_comparison(page: Page) -> tuple[str, str]:
    """The texts shown as Reply A and Reply B, once the second reply has arrived."""
    expect(page.get_by_role("figure", name="Reply A")).to_be_visible(timeout=REPLY_WAIT_MS)
    quotes = page.locator(".compare-reply blockquote").all_inner_texts()
    return quotes[0], quotes[1]


def comparison_questions(page: Page) -> list[str]:
    return page.locator("fieldset.pairwise > legend").all_inner_texts()


WINNER_LABELS = {"A": "Reply A", "B": "Reply B", None: "No preference"}


def choose(page: Page, question: str, winner: str | None) -> None:
    group = page.get_by_role("group", name=question, exact=True)
    group.get_by_role("radio", name=WINNER_LABELS[winner], exact=True).check()


@contextmanager
def draft_saved(page: Page, text: str) -> Iterator[None]:
    """Around typing ``text``: waits until the app has saved a draft holding it on the server
    (PUT /api/study/drafts/<key>, sent once the app's debounce has passed), so a reload that
    follows tests the server's copy and no fixed wait guesses how long that takes."""
    quoted = json.dumps(text, ensure_ascii=False)[1:-1]  # as it appears in the JSON body

    def is_the_save(response: Response) -> bool:
        request = response.request
        return (
            request.method == "PUT"
            and "/api/study/drafts/" in response.url
            and quoted in (request.post_data or "")
            and response.ok
        )

    with page.expect_response(is_the_save, timeout=REPLY_WAIT_MS):
        yield
