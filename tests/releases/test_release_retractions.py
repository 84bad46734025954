"""A participant erased after 1.0.0: 1.1.0 is refused, 2.0.0 leaves them out and lists their
conversations in retractions.json (ids and dates only), and verify_release OLD --against NEW
names them for the holders of 1.0.0."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from annotations.models import Conversation, ConversationState
from annotations.qa.services.personal_details import erase_participant
from annotations.releases.services import ReleaseError

pytestmark = pytest.mark.django_db


def test_erasure_after_release_is_retracted_by_the_next_major_version(
    build, demo_study, researcher, capsys
):
    old = build("1.0.0")
    conversation = (
        Conversation.objects.filter(study=demo_study, state=ConversationState.COMPLETED)
        .order_by("pk")
        .first()
    )
    participant = conversation.participant
    erased_ids = sorted(
        Conversation.objects.filter(participant=participant).values_list("external_id", flat=True)
    )
    released = {
        p.stem.removeprefix("conversation_") for p in (Path(old.folder) / "conversations").iterdir()
    }
    erased_released = sorted(set(erased_ids) & released)
    assert erased_released

    erasure = erase_participant(participant, actor=researcher)

    with pytest.raises(ReleaseError, match="needs a MAJOR version"):
        build("1.1.0")
    new = build("2.0.0")
    folder = Path(new.folder)
    assert not {f"conversation_{cid}.json" for cid in erased_ids} & {
        p.name for p in (folder / "conversations").iterdir()
    }
    retractions = json.loads((folder / "retractions.json").read_text())
    assert retractions == {
        "previousVersion": "1.0.0",
        "retractions": [
            {"conversationId": cid, "retractedAt": erasure.erased_at.date().isoformat()}
            for cid in erased_released
        ],
    }

    call_command("verify_release", old.folder, against=new.folder)
    out = capsys.readouterr().out
    assert f"retracts {len(erased_released)} conversation(s)" in out
    for cid in erased_released:
        assert f"retracted {cid} on " in out


def test_the_erasure_empties_the_content_and_is_audited(demo_study, researcher):
    from annotations.models import AuditEntry, Turn

    conversation = Conversation.objects.filter(study=demo_study).order_by("pk").first()
    erase_participant(conversation.participant, actor=researcher)
    assert (
        not Turn.objects.filter(conversation__participant=conversation.participant)
        .exclude(user_message="")
        .exists()
    )
    entry = AuditEntry.objects.get(action="qa.participant.erase")
    assert entry.actor == researcher and entry.target_id == str(conversation.participant_id)
