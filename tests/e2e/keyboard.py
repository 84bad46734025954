"""Walking the participant app with the keyboard alone: Tab (or Shift+Tab) until a control
has the focus, checking at every stop that the focus can be seen (an outline on the control,
or on the tile that draws it), is on screen and is not covered by anything (WCAG 2.4.7 and
2.4.11). Nothing here clicks, fills or focuses an element from script: keys only."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import Page

# What has the focus, named the way a person would find it, and how its focus shows.
_FOCUSED = """() => {
  const el = document.activeElement;
  const text = (n) => (n ? (n.innerText ?? n.textContent ?? "") : "").trim().replace(/\\s+/g, " ");
  const labelled = el.labels && el.labels.length ? text(el.labels[0]) : "";
  const fieldset = el.closest("fieldset");
  const legend = fieldset ? text(fieldset.querySelector(":scope > legend")) : "";
  const group = el.closest("[role=radiogroup]");
  const part = group ? text(document.getElementById(group.getAttribute("aria-labelledby"))) : "";
  const tile = el.closest(".scale-option, .segment, .chip");
  const target = tile ?? el;
  const shows = (n) => {
    const s = getComputedStyle(n);
    return s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2 && s.opacity !== "0"
      && s.outlineColor !== "rgba(0, 0, 0, 0)";
  };
  const r = target.getBoundingClientRect();
  // The whole ring must be on screen, not only the control.
  const ring = getComputedStyle(target);
  const grow = ring.outlineStyle === "none" ? 0 : parseFloat(ring.outlineWidth) + parseFloat(ring.outlineOffset);
  // A text box taller than what is left of the window is scrolled by the browser to its
  // caret (the first line), so its ring's top and first lines must show, not all of it.
  const bottom = el.tagName === "TEXTAREA" ? Math.min(r.bottom, r.top + 60) : r.bottom;
  const inView = r.top - grow >= 0 && bottom + grow <= innerHeight && r.left - grow >= 0
    && r.right + grow <= innerWidth;
  const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  const hit = document.elementFromPoint(x, y);
  const own = (n) => !!n && (target.contains(n) || n.contains(target)
    || (el.labels && [...el.labels].some((l) => l.contains(n))));
  return {
    tag: el.tagName.toLowerCase(), type: el.getAttribute("type") || "", id: el.id,
    name: el.getAttribute("aria-label") || labelled || text(el), legend, part,
    checked: !!el.checked, indicator: el === document.body || shows(target),
    in_view: inView, covered: !own(hit), covered_by: own(hit) || !hit ? "" : hit.className || hit.tagName,
    box: [Math.round(r.top), Math.round(r.bottom), innerHeight, Math.round(scrollY)],
  };
}"""


@dataclass
class KeyboardWalk:
    """Records every focus stop of a walk; ``problems()`` lists the stops whose focus could
    not be seen, was off screen or was covered."""

    page: Page
    stops: list[dict] = field(default_factory=list)

    def focused(self) -> dict:
        return self.page.evaluate(_FOCUSED)

    def tab_to(
        self, wanted: Callable[[dict], bool], what: str, *, back: bool = False, limit: int = 120
    ) -> dict:
        """Press Tab (Shift+Tab with ``back``) until the focused control is ``wanted``."""
        key = "Shift+Tab" if back else "Tab"
        for _ in range(limit):
            self.page.keyboard.press(key)
            stop = self.focused()
            self.stops.append(stop)
            if wanted(stop):
                return stop
        raise AssertionError(f"{what} not reached in {limit} presses of {key}: {self.stops[-5:]}")

    def press(self, *keys: str) -> dict:
        """Keys on the focused control (Space, arrows, Enter); the stop they lead to."""
        for key in keys:
            self.page.keyboard.press(key)
        stop = self.focused()
        self.stops.append(stop)
        return stop

    def problems(self) -> list[dict]:
        return [s for s in self.stops if not (s["indicator"] and s["in_view"]) or s["covered"]]


def named(name: str, tag: str | None = None) -> Callable[[dict], bool]:
    return lambda s: s["name"].startswith(name) and (tag is None or s["tag"] == tag)


def radio_of(legend: str, part: str = "") -> Callable[[dict], bool]:
    """A radio button of the question ``legend`` (and of its ``part``, e.g. "Did it?")."""
    return lambda s: s["type"] == "radio" and s["legend"] == legend and s["part"] == part
