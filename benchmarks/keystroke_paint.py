"""Keystroke-to-paint in the reply editor of the annotation panel, on a phone-sized page with
the CPU slowed down 4x (Chromium's DevTools throttling), for one or more builds side by side.

Each build (a `frontend/dist` folder) runs with no server: Playwright answers the page, the
bundle and the participant API from memory (tests/e2e/offline_app.py) and opens the chat at a
reply waiting for its annotation. For every key pressed in "Edit the reply", the page records
the time from the keydown event to the first task after the next animation frame (the frame
that paints the new character). Prints the median, p95 and max per build, each build's median
against the first one's, and the main thread's busy time per key (DevTools' TaskDuration and
ScriptDuration over the whole typing run): on a machine shared with other work the latency
also counts waiting for the CPU, the busy time much less so.

  python benchmarks/keystroke_paint.py --build before=/tmp/before/dist --build after=frontend/dist
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import _setup

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.e2e.offline_app import open_app

MEASURE = """() => {
  window.__latencies = [];
  document.addEventListener("keydown", (event) => {
    const start = event.timeStamp;
    requestAnimationFrame(() => setTimeout(() => window.__latencies.push(performance.now() - start), 0));
  }, true);
}"""
TEXT = "I would have liked you to ask me first what I needed today. "


def _busy(cdp) -> dict[str, float]:
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {"task": metrics["TaskDuration"], "script": metrics["ScriptDuration"]}


def measure(
    dist: Path, keys: int, throttle: float, timeout_s: float
) -> tuple[list[float], dict[str, float]]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            open_app(page, dist, "chat")
            editor = page.locator("#annotation-edit")
            editor.wait_for(timeout=timeout_s * 1000)
            editor.focus()
            page.keyboard.press("End")
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            cdp.send("Performance.enable")
            page.evaluate(MEASURE)
            before = _busy(cdp)
            deadline = time.monotonic() + timeout_s
            for index in range(keys):
                if time.monotonic() > deadline:
                    raise SystemExit(f"{dist}: {index} keys in {timeout_s} s, stopping")
                page.keyboard.press(TEXT[index % len(TEXT)].replace(" ", "Space"))
                page.wait_for_function(
                    f"window.__latencies.length > {index}", timeout=timeout_s * 1000
                )
            after = _busy(cdp)
            per_key = {k: 1000 * (after[k] - before[k]) / keys for k in after}
            return list(page.evaluate("window.__latencies")), per_key
        finally:
            browser.close()


def main() -> None:
    parser = _setup.argument_parser(__doc__)
    parser.add_argument(
        "--build",
        action="append",
        required=True,
        metavar="NAME=DIST",
        help="a name and a built frontend/dist folder (repeat to compare)",
    )
    parser.add_argument("--keys", type=int, default=60, help="keys typed per build (default 60)")
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slowdown (default 4)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per build at most")
    args = parser.parse_args()

    rows = []
    for spec in args.build:
        name, _, folder = spec.partition("=")
        latencies, busy = measure(Path(folder), args.keys, args.throttle, args.timeout)
        ordered = sorted(latencies)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        rows.append((name, statistics.median(ordered), p95, ordered[-1], len(ordered), busy))
    base, base_task = rows[0][1], rows[0][5]["task"]
    print(f"keystroke to paint, reply editor, {args.throttle:g}x CPU slowdown, 390x844 page")
    print(
        f"{'build':<10} {'keys':>5} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'vs first':>9}"
        f" {'task ms/key':>12} {'script ms/key':>14} {'vs first':>9}"
    )
    for name, median, p95, worst, count, busy in rows:
        print(
            f"{name:<10} {count:>5} {median:>10.1f} {p95:>8.1f} {worst:>8.1f} {median / base:>8.2f}x"
            f" {busy['task']:>12.1f} {busy['script']:>14.1f} {busy['task'] / base_task:>8.2f}x"
        )


if __name__ == "__main__":
    main()
