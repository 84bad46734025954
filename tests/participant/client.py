"""A participant's side of the API, for tests: the same calls the participant app makes.

``ParticipantClient`` speaks through a transport: the Django test client (fast, in the test's
transaction) or real HTTP to uvicorn (``LiveTransport``), which the streaming chat needs
(Django's test client and pytest-django's live_server do not stream).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
from rest_framework.test import APIClient

PANAS_NEUTRAL = 3


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def error(self) -> dict[str, Any]:
        return self.body["error"]


@dataclass
class StreamResult:
    """What a chat call returned: SSE events, or a JSON refusal before the stream began."""

    status: int
    events: list[tuple[str, dict[str, Any]]]
    body: Any = None

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.events]

    @property
    def text(self) -> str:
        return "".join(data["text"] for name, data in self.events if name == "delta")

    def data(self, name: str) -> dict[str, Any]:
        return next(data for event, data in self.events if event == name)


class Transport(Protocol):
    def request(self, method: str, path: str, data: Any, headers: dict[str, str]) -> Reply: ...


class DjangoTransport:
    def __init__(self, client: APIClient | None = None) -> None:
        self.client = client or APIClient()

    def request(self, method: str, path: str, data: Any, headers: dict[str, str]) -> Reply:
        extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()}
        call = getattr(self.client, method.lower())
        response = (
            call(path, data, format="json", **extra) if data is not None else call(path, **extra)
        )
        body = (
            response.json()
            if response.get("Content-Type", "").startswith("application/json")
            else None
        )
        return Reply(response.status_code, body, dict(response.items()))


def parse_sse(lines: Iterator[str]) -> list[tuple[str, dict[str, Any]]]:
    events, name, data = [], None, []
    for line in lines:
        if line.startswith("event:"):
            name = line.removeprefix("event:").strip()
        elif line.startswith("data:"):
            data.append(line.removeprefix("data:").strip())
        elif line == "" and name is not None:
            events.append((name, json.loads("\n".join(data))))
            name, data = None, []
    return events


class LiveTransport:
    """Real HTTP to the platform under uvicorn."""

    def __init__(self, base_url: str, timeout: float = 30.0) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=timeout)

    def request(self, method: str, path: str, data: Any, headers: dict[str, str]) -> Reply:
        response = self.http.request(method, path, json=data, headers=headers)
        is_json = response.headers.get("content-type", "").startswith("application/json")
        return Reply(
            response.status_code, response.json() if is_json else None, dict(response.headers)
        )

    def stream(self, path: str, data: Any, headers: dict[str, str]) -> StreamResult:
        with self.http.stream("POST", path, json=data, headers=headers) as response:
            if not response.headers.get("content-type", "").startswith("text/event-stream"):
                response.read()
                return StreamResult(response.status_code, [], response.json())
            return StreamResult(response.status_code, parse_sse(response.iter_lines()))

    def close(self) -> None:
        self.http.close()


class ParticipantClient:
    """One participant: start (or resume) from a study link, then the study's steps."""

    def __init__(self, transport: Transport, slug: str, pid: str | None = None) -> None:
        self.transport = transport
        self.slug = slug
        # As Prolific writes them (24 lowercase hex digits): a Prolific study refuses others.
        self.pid = pid if pid is not None else uuid.uuid4().hex[:24]
        self.token: str | None = None

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Participant {self.token}"} if self.token else {}

    def start(self, **extra: str) -> Reply:
        body = {"prolific_pid": self.pid, "study_id": "STUDY1", "session_id": "SESSION1", **extra}
        reply = self.transport.request("POST", f"/api/study/{self.slug}/start", body, {})
        if reply.status in (200, 201):
            self.token = reply.body["token"]
        return reply

    def get(self, path: str) -> Reply:
        return self.transport.request("GET", f"/api/study/{path}", None, self.headers)

    def post(self, path: str, data: Any = None) -> Reply:
        return self.transport.request(
            "POST", f"/api/study/{path}", data if data is not None else {}, self.headers
        )

    def put(self, path: str, data: Any) -> Reply:
        return self.transport.request("PUT", f"/api/study/{path}", data, self.headers)

    def delete(self, path: str) -> Reply:
        return self.transport.request("DELETE", f"/api/study/{path}", None, self.headers)

    def session(self) -> dict[str, Any]:
        reply = self.get("session")
        assert reply.status == 200, reply.body
        return reply.body

    # -- the steps, with valid answers ------------------------------------------------------

    def onboard(self) -> dict[str, Any]:
        """Start, consent, profile, pre-PANAS and topic: the chat is open afterwards."""
        if self.token is None:
            assert self.start().status in (200, 201)
        session = self.session()
        steps = [
            (
                "consent",
                lambda s: {"consent_version": s["study"]["consent_version"], "agree": True},
            ),
            (
                "profile",
                lambda s: {
                    "age": 34,
                    "traits": ["introvert"],
                    "goals": ["be heard"],
                    "diagnosis": "asd_adhd",
                },
            ),
            ("panas/pre", lambda s: {"items": self.panas_items()}),
            ("topic", lambda s: {"category": s["study"]["topics"][0]["category"]}),
        ]
        for path, body in steps:
            reply = self.post(path, body(session))
            assert reply.status == 200, (path, reply.status, reply.body)
            session = reply.body
        assert session["step"] == "chat", session
        return session

    def panas_items(self, value: int = PANAS_NEUTRAL) -> dict[str, int]:
        items = self.get("instrument").body["panas_items"]
        return {item["id"]: value for item in items}

    def send(self, text: str, key: str | None = None) -> StreamResult:
        body = {"text": text, "idempotency_key": key or uuid.uuid4().hex}
        return self.transport.stream("/api/study/messages", body, self.headers)  # type: ignore[attr-defined]

    def retry(self, number: int) -> StreamResult:
        return self.transport.stream(f"/api/study/turns/{number}/retry", {}, self.headers)  # type: ignore[attr-defined]

    def annotate(self, number: int, **overrides: Any) -> Reply:
        return self.post(
            f"turns/{number}/annotation", {**self.valid_annotation(number), **overrides}
        )

    def valid_annotation(self, number: int) -> dict[str, Any]:
        step = self.get(f"turns/{number}/annotation").body
        comparison = step["comparison"]
        pairwise = {}
        if comparison["status"] == "ready":
            pairwise = {q["id"]: "B" for q in comparison["questions"]}
        return {
            "mood_tags": [{"emotion": "Nervous", "intensity": 4}],
            "behaviour": {
                q["id"]: {"observed": "yes", "preferred": "no"} for q in step["behaviour_questions"]
            },
            "edited_reply": "What I would have liked to hear.",
            "pairwise": pairwise,
            "timings": {"mood": 4.5},
        }

    def finish_and_complete(self) -> dict[str, Any]:
        """End the chat and answer every post-chat question; returns the final session."""
        for path, body in [
            ("finish", {}),
            ("panas/post", {"items": self.panas_items(4)}),
            (
                "post-survey",
                {
                    "looking_for": ["vent", "calm"],
                    "emotion_clarity": "clear",
                    "model_fit": "mixed",
                    "what_felt_off": ["It gave advice too fast."],
                    "four_branch": {
                        "perceiving": 5,
                        "facilitating": 4,
                        "understanding": 6,
                        "managing": 3,
                    },
                },
            ),
        ]:
            reply = self.post(path, body)
            assert reply.status == 200, (path, reply.body)
        return reply.body
