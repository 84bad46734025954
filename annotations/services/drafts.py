"""Drafts: what a participant has typed but not submitted, saved server-side as they type.

Drafts are scratch space, not study data: saving one writes no audit entry (the app saves
every few seconds, and the audit log is for state changes of the record). The submit that a
draft was for clears it, in the same transaction.
"""

from __future__ import annotations

import json
import re
from typing import Any

from annotations.models import Participant, ParticipantDraft
from annotations.services.errors import invalid
from attune_collect.config import attune_config

DRAFT_KEY = re.compile(r"^[a-z0-9][a-z0-9:_-]{0,63}$")
MAX_DRAFT_BYTES = 64 * 1024


def save_draft(participant: Participant, key: str, data: Any) -> ParticipantDraft:
    """Store (or replace) the draft under ``key`` (the API refuses it after withdrawal: the
    withdrawal deletes the participant's drafts).

    A participant keeps at most ``draft_max_count`` drafts holding at most
    ``draft_max_total_kib`` of JSON in all (attune_collect/config.py): the app keeps a handful
    of a few KiB, and a client piling up more is refused, its drafts left as they were. The
    check reads the participant's drafts without a lock, so saves of new keys at the very same
    moment could pass it together: by a few drafts at most (the participant's rate limit).
    """
    _check_key(key)
    size = _json_size(data)
    if size > MAX_DRAFT_BYTES:
        raise invalid("data", f"a draft holds at most {MAX_DRAFT_BYTES // 1024} KiB")
    # One read serves the count, the total and the replacement (it was one read before).
    saved = list(ParticipantDraft.objects.filter(participant=participant))
    existing = next((draft for draft in saved if draft.key == key), None)
    others = [draft for draft in saved if draft is not existing]
    config = attune_config()
    if existing is None and len(others) >= config.draft_max_count:
        raise invalid("key", f"at most {config.draft_max_count} drafts; delete one first")
    if size + sum(_json_size(draft.data) for draft in others) > config.draft_max_total_kib * 1024:
        raise invalid("data", f"drafts hold at most {config.draft_max_total_kib} KiB in all")
    if existing is None:
        draft, _ = ParticipantDraft.objects.update_or_create(
            participant=participant, key=key, defaults={"data": data}
        )
        return draft
    existing.data = data
    existing.save(update_fields=["data", "updated_at"])
    return existing


def _json_size(data: Any) -> int:
    return len(json.dumps(data, ensure_ascii=False).encode())


def drafts_of(participant: Participant) -> list[ParticipantDraft]:
    return list(ParticipantDraft.objects.filter(participant=participant))


def delete_draft(participant: Participant, key: str) -> None:
    """Delete the draft under ``key``; a key no draft has is no error (the app may delete
    twice), a key no draft could have is (the schema states the pattern)."""
    _check_key(key)
    clear_drafts(participant, key)


def _check_key(key: str) -> None:
    # fullmatch: the pattern's $ would also match before a trailing newline.
    if not DRAFT_KEY.fullmatch(key):
        raise invalid("key", "use 1 to 64 lower-case letters, digits, ':', '_' or '-'")


def clear_drafts(participant: Participant, *keys: str) -> None:
    """Delete the participant's drafts under ``keys`` (twice per chat message): one DELETE, as
    Django deletes without its collector's queries while no model refers to a draft and nothing
    listens for a draft's deletion (``tests/participant/test_drafts.py`` checks both)."""
    if keys:
        ParticipantDraft.objects.filter(participant=participant, key__in=keys).delete()
