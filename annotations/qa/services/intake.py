"""The QA record of a conversation, created when it enters QA, with its double-review pick."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from annotations.models import Conversation
from annotations.qa.models import ConversationReview, StudyQASettings

DEFAULT_DOUBLE_REVIEW_SHARE = StudyQASettings._meta.get_field("double_review_share").default


def is_double_review(conversation: Conversation, share: float) -> bool:
    """A stable pseudo-random pick: the same conversation and share always give the same answer.

    Hashing the ids (rather than drawing at random) makes the agreement sample reproducible
    and independent of the order in which conversations complete.
    """
    digest = hashlib.sha256(f"{conversation.study_id}:{conversation.external_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < share


def open_reviews(conversations: Sequence[Conversation]) -> dict[int, ConversationReview]:
    """The QA record of each conversation, created where it is missing (idempotent)."""
    ids = [c.pk for c in conversations]
    existing = {
        r.conversation_id: r for r in ConversationReview.objects.filter(conversation_id__in=ids)
    }
    missing = [c for c in conversations if c.pk not in existing]
    if not missing:
        return existing
    shares = dict(
        StudyQASettings.objects.filter(study_id__in={c.study_id for c in missing}).values_list(
            "study_id", "double_review_share"
        )
    )
    ConversationReview.objects.bulk_create(
        [
            ConversationReview(
                conversation=c,
                double_review=is_double_review(
                    c, shares.get(c.study_id, DEFAULT_DOUBLE_REVIEW_SHARE)
                ),
            )
            for c in missing
        ],
        ignore_conflicts=True,  # a concurrent intake of the same conversation already made it
    )
    return {
        r.conversation_id: r for r in ConversationReview.objects.filter(conversation_id__in=ids)
    }
