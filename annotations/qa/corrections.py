"""The correction layer, as the release exporter applies it.

    record = apply_corrections(record, conversation.pk)

returns the record with every active correction of that conversation applied; the stored
participant data is never touched. For many conversations, ``CorrectionLayer`` loads the
corrections of all of them in one query. ``correction_rows`` lists them for a release's
corrections file, so both layers stay available to anyone who reads the release.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

from annotations.models import Conversation
from annotations.qa.correction_fields import apply_value, parse_path
from annotations.qa.models import Correction
from attunebench import records


class CorrectionLayer:
    """The active corrections of a set of conversations, loaded once."""

    def __init__(self, by_conversation: dict[int, list[Correction]]) -> None:
        self._by_conversation = by_conversation

    @classmethod
    def for_conversations(cls, conversation_ids: Iterable[int]) -> CorrectionLayer:
        grouped: dict[int, list[Correction]] = defaultdict(list)
        for correction in _active().filter(conversation_id__in=list(conversation_ids)):
            grouped[correction.conversation_id].append(correction)
        return cls(dict(grouped))

    def corrected_fields(self, conversation_id: int) -> list[str]:
        return [c.field_path for c in self._by_conversation.get(conversation_id, [])]

    def apply(self, record: records.Conversation, conversation_id: int) -> records.Conversation:
        for correction in self._by_conversation.get(conversation_id, []):
            # A field that no longer exists raises CorrectionPathError: participant data is
            # never rewritten, so that means corruption, and a release must not hide it.
            record = apply_value(
                record, parse_path(correction.field_path), correction.corrected_value
            )
        return record


def apply_corrections(record: records.Conversation, conversation_id: int) -> records.Conversation:
    """The record with the correction layer of conversation ``conversation_id`` applied."""
    return CorrectionLayer.for_conversations([conversation_id]).apply(record, conversation_id)


def correction_rows(queryset: QuerySet[Conversation]) -> list[dict[str, Any]]:
    """Active corrections of these conversations, in the shape of a release's corrections file."""
    rows = _active().filter(conversation__in=queryset).select_related("conversation")
    return [
        {
            "conversationId": c.conversation.external_id,
            "field": c.field_path,
            "original": c.original_value,
            "corrected": c.corrected_value,
            "reason": c.reason,
            "note": c.note,
            "correctedAt": c.created_at.isoformat(),
        }
        for c in rows.order_by("conversation_id", "id")
    ]


def _active() -> QuerySet[Correction]:
    return Correction.objects.filter(withdrawn_at__isnull=True).order_by("id")
