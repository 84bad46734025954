"""Reading a release's retractions file (pure): which conversations of an older copy a newer
release retracts. Every release after the first of a dataset writes ``retractions.json``
(``services._write_retractions``): ``{"previousVersion": ..., "retractions": [{"conversationId",
"retractedAt"}]}``, ids and dates only."""

from __future__ import annotations

import json
from pathlib import Path

RETRACTIONS_NAME = "retractions.json"


def read_retractions(folder: Path) -> list[tuple[str, str]]:
    """(conversation id, date) pairs of the release's retractions file; none without one."""
    path = folder / RETRACTIONS_NAME
    if not path.is_file():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return [(str(item["conversationId"]), str(item["retractedAt"])) for item in data["retractions"]]


def retracted_in(old: Path, new: Path) -> list[tuple[str, str]]:
    """The conversations the old copy still holds that the newer release retracts.

    A holder may skip versions, so only the newer release's own list is read: it names what it
    dropped since its previous version, and a conversation the old copy does not hold is no
    concern of its holder."""
    held = {p.stem.removeprefix("conversation_") for p in (old / "conversations").glob("*.json")}
    return [(cid, date) for cid, date in read_retractions(new) if cid in held]
