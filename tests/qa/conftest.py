"""Helpers for the QA tests."""

from __future__ import annotations

import pytest

from annotations.qa.models import Flag
from annotations.qa.services.flagging import compute_flags


def flags_of(conversation, *, compute: bool = True) -> dict[str, Flag]:
    """The conversation's automatic flags by type, computed first unless told otherwise."""
    if compute:
        compute_flags([conversation.pk], actor_label="test")
    return {
        f.flag_type: f for f in Flag.objects.filter(conversation=conversation, source="automatic")
    }


@pytest.fixture
def reviewer_client(client, reviewer):
    client.force_login(reviewer)
    return client
