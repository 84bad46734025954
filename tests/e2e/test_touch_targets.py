"""On a 320 px wide phone, every control of every step is at least 44 x 44 CSS px, control
edges contrast at least 3:1 with what surrounds them (WCAG 1.4.11), nothing scrolls sideways,
and a chosen tile shows it without `:has()`. Measured in Chromium on the built app, answered
from memory (tests/e2e/offline_app.py): no server is started."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.offline_app import open_app

NARROW = {"width": 320, "height": 640}
MIN_TARGET = 44
MIN_CONTRAST = 3.0
STEPS = {
    "consent": "Information and consent",
    "pre_panas": "How you feel before the chat",
    "topic": "Choose a topic",
    "chat": "About this reply",
    "post_survey": None,
    "complete": "Thank you!",
}

# The box a finger hits: a tile's or a choice row's label for the transparent or small native
# radio/checkbox inside it, the element itself otherwise. Inline links in running text (the
# "still to answer" list) are exempt under WCAG 2.5.8, as are links of the footer's text.
_MEASURE = """() => {
  const targets = [];
  const seen = new Set();
  for (const element of document.querySelectorAll("button, a.button, textarea, input, select")) {
    const box = (element.matches("input[type=radio], input[type=checkbox]") && element.closest("label")) || element;
    if (seen.has(box)) continue;
    seen.add(box);
    const rect = box.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) continue;
    const name = (box.innerText || element.getAttribute("aria-label") || element.id || element.tagName).trim().slice(0, 40);
    targets.push({ name, width: rect.width, height: rect.height });
  }
  return targets;
}"""

_CONTRAST = """() => {
  const rgb = (value) => (value.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const luminance = ([r, g, b]) => {
    const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const backdrop = (element) => {
    for (let node = element.parentElement; node; node = node.parentElement) {
      const colour = rgb(getComputedStyle(node).backgroundColor);
      if (colour.length === 3 || colour[3] > 0) return colour;
    }
    return [255, 255, 255];
  };
  const results = [];
  for (const element of document.querySelectorAll("textarea, input:not([type=radio]):not([type=checkbox]), .scale-option, .segment, .chip")) {
    const style = getComputedStyle(element);
    if (style.borderTopStyle === "none" || parseFloat(style.borderTopWidth) === 0) continue;
    const [a, b] = [luminance(rgb(style.borderTopColor)), luminance(backdrop(element))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    results.push({ name: (element.innerText || element.id || element.className).trim().slice(0, 40), ratio });
  }
  return results;
}"""


@pytest.fixture
def dist(built_frontend: Path) -> Path:
    return built_frontend.parents[1]


@pytest.mark.parametrize("step", list(STEPS))
def test_every_control_is_a_44px_target_with_3_to_1_edges_at_320px(
    page: Page, dist: Path, step: str
):
    page.set_viewport_size(NARROW)
    open_app(page, dist, step)
    heading = STEPS[step]
    if heading:
        page.get_by_role("heading", name=heading).wait_for()
    else:
        page.get_by_role("button", name="Submit my answers").wait_for()
    targets = page.evaluate(_MEASURE)
    assert targets, "no control found"
    small = [t for t in targets if t["width"] < MIN_TARGET - 0.5 or t["height"] < MIN_TARGET - 0.5]
    assert not small, f"targets under {MIN_TARGET} px at 320 px: {small}"
    faint = [c for c in page.evaluate(_CONTRAST) if c["ratio"] < MIN_CONTRAST]
    assert not faint, f"control edges under {MIN_CONTRAST}:1: {faint}"
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= NARROW["width"], f"the page scrolls sideways: {overflow} px wide"


def test_a_chosen_tile_shows_it_without_has(page: Page, dist: Path):
    stylesheets = [path.read_text() for path in (dist / "participant-app").glob("*.css")]
    assert stylesheets and not any(":has(" in css for css in stylesheets)
    page.set_viewport_size(NARROW)
    open_app(page, dist, "pre_panas")
    first, second = page.locator(".scale-option").nth(0), page.locator(".scale-option").nth(1)
    before = first.evaluate("e => getComputedStyle(e).backgroundColor")
    first.click()
    assert first.evaluate("e => getComputedStyle(e).backgroundColor") != before
    assert second.evaluate("e => getComputedStyle(e).backgroundColor") == before
    page.keyboard.press("ArrowRight")  # the radio group moves the focus (and choice) to 2
    assert second.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
