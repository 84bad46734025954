"""The built participant app in a browser with no server: Playwright answers the page, the
bundle (from a ``dist`` folder) and the participant API (JSON shaped like the serializers') from
memory. For measurements of the app alone (touch targets, contrast, typing cost); the real
platform is driven by the other tests of this folder. Every request is fulfilled in the browser,
so nothing reaches the network (the origin is loopback's discard port).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Route

ORIGIN = "http://127.0.0.1:9"
SLUG = "offline"
PID = "OFFLINE1"
API = "/api/study/"

PANAS = [
    "Proud",
    "Alert",
    "Inspired",
    "Determined",
    "Attentive",
    "Active",
    "Excited",
    "Strong",
    "Enthusiastic",
    "Interested",
    "Irritable",
    "Ashamed",
    "Nervous",
    "Jittery",
    "Distressed",
    "Afraid",
    "Upset",
    "Guilty",
    "Scared",
    "Hostile",
]
LABELS = [
    "very slightly or not at all",
    "a little",
    "somewhat",
    "moderately",
    "quite a bit",
    "very much",
    "extremely",
]
REPLY = (
    "That sounds really hard, and it makes sense that you feel worn out. Would it help to "
    "talk through what happened today, or would you rather think about what could change?"
)

INSTRUMENT = {
    "name": "offline",
    "version": 1,
    "language": "en",
    "intensity_scale": {
        "min": 1,
        "max": 7,
        "labels": {str(i + 1): t for i, t in enumerate(LABELS)},
    },
    "panas_items": [
        {
            "id": w,
            "label": w,
            "polarity": "positive" if i < 10 else "negative",
            "description": f"feeling {w.lower()}",
        }
        for i, w in enumerate(PANAS)
    ],
    "q1_looking_for": {
        "prompt": "What were you looking for?",
        "multi": True,
        "options": [{"id": "vent", "label": "To vent"}, {"id": "advice", "label": "Advice"}],
    },
    "q2_emotion_clarity": {
        "prompt": "How clear were your feelings?",
        "multi": False,
        "options": [{"id": "clear", "label": "Clear"}, {"id": "unclear", "label": "Unclear"}],
    },
    "q3_model_fit": {
        "prompt": "How well did the assistant fit?",
        "multi": False,
        "options": [{"id": "well", "label": "Well"}, {"id": "mixed", "label": "Mixed"}],
    },
    "q3_follow_up": {"prompt": "What felt off?", "shown_when": ["mixed"]},
    "four_branches": [
        {"id": b, "label": b.title(), "text": f"How well did it do at {b}?"}
        for b in ("perceiving", "facilitating", "understanding", "managing")
    ],
}

TURN = {
    "number": 1,
    "status": "done",
    "user_message": "Work has been too much this week.",
    "reply": REPLY,
    "idempotency_key": "a" * 32,
    "error": None,
    "annotation_submitted": False,
}

ANNOTATION = {
    "turn": 1,
    "submitted": False,
    "draft_key": "annotation:1",
    "behaviour_questions": [
        {"id": f"B{i}", "text": f"Did the reply do thing {i}?"} for i in (1, 4, 9)
    ],
    "comparison": {
        "status": "ready",
        "questions": [{"id": "general", "text": "Which reply would you rather have received?"}],
        "responses": {"A": REPLY, "B": "I hear you. What happened?"},
    },
}


def session(step: str) -> dict[str, Any]:
    chat = {"turns": [TURN], "answered": 0, "can_send": False, "can_finish": False}
    exit_code = {"code": "C0FFEE", "redirect_url": f"{ORIGIN}/prolific-return"}
    return {
        "step": step,
        "preview": False,
        "language": "en",
        "study": {
            "slug": SLUG,
            "title": "Offline study",
            "consent_text": "Consent text.",
            "consent_version": "v1",
            "topics": [{"category": "work", "subtopics": ["stress"]}],
            "min_turns": 2,
            "max_turns": 4,
            "conversations_per_participant": 1,
            "message_max_chars": 4000,
            "support_resources": "Call 116 123.",
            "topic_labels": {},
            "languages": ["en"],
            "default_language": "en",
        },
        "conversation": {"number": 1, "topic_category": "work", "topic_subtopic": ""}
        if step == "chat"
        else None,
        "chat": chat if step == "chat" else None,
        "support": None,
        "completion": exit_code if step == "complete" else None,
        "screenout": None,
    }


def _page_html(dist: Path) -> str:
    manifest = json.loads((dist / ".vite" / "manifest.json").read_text())
    entry = manifest["src/main.tsx"]
    styles = "".join(f'<link rel="stylesheet" href="/app/{css}">' for css in entry.get("css", []))
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>Offline study</title>{styles}<script type="module" src="/app/{entry["file"]}"></script>'
        f'</head><body><div id="attune-app" data-study-slug="{SLUG}" data-api-base="{API}"></div></body></html>'
    )


def open_app(page: Page, dist: Path, step: str) -> None:
    """Open the app of ``dist`` at ``step`` (started from the landing page, as on a phone)."""
    html = _page_html(dist)
    body = session(step)

    def answer(route: Route) -> None:
        request = route.request
        path = request.url.removeprefix(ORIGIN).split("?")[0]
        if path.startswith("/app/"):
            file = dist / path.removeprefix("/app/")
            kind = "text/css" if file.suffix == ".css" else "text/javascript"
            route.fulfill(body=file.read_bytes(), content_type=kind)
        elif path.startswith(f"/s/{SLUG}/"):
            route.fulfill(body=html, content_type="text/html")
        elif path == f"{API}{SLUG}/start":
            route.fulfill(json={"token": "offline-token", "session": body}, status=201)
        elif path == f"{API}session":
            route.fulfill(json=body)
        elif path == f"{API}instrument":
            route.fulfill(json=INSTRUMENT)
        elif path == f"{API}drafts":
            route.fulfill(json=[])
        elif path.startswith(f"{API}drafts/"):
            route.fulfill(status=204, body="")
        elif path == f"{API}turns/1/annotation":
            route.fulfill(json=ANNOTATION)
        else:
            route.fulfill(
                status=404, json={"error": {"code": "not_found", "message": path, "field": None}}
            )

    page.route(f"{ORIGIN}/**", answer)
    page.goto(f"{ORIGIN}/s/{SLUG}/?PROLIFIC_PID={PID}")
    page.get_by_role("button", name="Start").click()
