"""Each step of a browser session: a screenshot at phone and desktop widths, and an axe-core
accessibility check whose serious and critical violations fail the test. axe-core is loaded
through the DevTools protocol, so the app runs under its real Content-Security-Policy."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
BLOCKING = ("serious", "critical")

_RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ")),
  }));
}"""


def inject_axe(page: Page) -> None:
    """Load axe-core into the page through the DevTools protocol, the way a tester's console
    would: the page's Content-Security-Policy (script-src 'self') stays as production sends
    it, and no script tag or nonce is added to the app for the tests."""
    session = page.context.new_cdp_session(page)
    try:
        result = session.send(
            "Runtime.evaluate", {"expression": AXE.read_text(encoding="utf-8"), "silent": False}
        )
    finally:
        session.detach()
    if "exceptionDetails" in result:
        raise AssertionError(f"axe-core did not load: {result['exceptionDetails']}")


@dataclass
class Steps:
    """Records the steps of one test; ``check()`` at the end fails on any blocking violation."""

    folder: Path
    phone: dict = field(default_factory=lambda: dict(PHONE))  # the phone's size of the test
    blocking: tuple[str, ...] = BLOCKING  # the impacts that fail the test
    count: int = 0
    violations: list[dict] = field(default_factory=list)

    def capture(self, page: Page, name: str) -> None:
        self.count += 1
        stem = self.folder / f"{self.count:02d}-{name}"
        for label, size in (("phone", self.phone), ("desktop", DESKTOP)):
            page.set_viewport_size(size)
            page.screenshot(path=f"{stem}-{label}.png", full_page=True)
            self._audit(page, f"{name} ({label})")
        page.set_viewport_size(self.phone)

    def _audit(self, page: Page, where: str) -> None:
        if not AXE.exists():
            raise AssertionError(f"{AXE} is missing: run `make frontend` (npm ci) first")
        if not page.evaluate("typeof window.axe !== 'undefined'"):
            inject_axe(page)
        for violation in page.evaluate(_RUN_AXE):
            if violation["impact"] in self.blocking:
                self.violations.append({"step": where, **violation})

    def check(self) -> None:
        assert not self.violations, "accessibility violations:\n" + json.dumps(
            self.violations, indent=1
        )
