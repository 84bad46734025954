"""Starting from a given address, as the start-limit tests need (the Django test client)."""

from __future__ import annotations

import uuid

from rest_framework.test import APIClient

from tests.participant.client import Reply


def new_pid() -> str:
    return uuid.uuid4().hex[:24]  # as Prolific writes them


def start_from(slug: str, address: str = "203.0.113.7", pid: str | None = None, **body) -> Reply:
    response = APIClient(REMOTE_ADDR=address).post(
        f"/api/study/{slug}/start", {"prolific_pid": pid or new_pid(), **body}, format="json"
    )
    return Reply(response.status_code, response.json())
