"""A message's writes are all stored, through the platform under uvicorn: the audit entries of
the message, the reply and the submit, the submit's mood tags, answers and step, and the
cleared drafts."""

from __future__ import annotations

import pytest

from annotations.models import AuditEntry, BehaviourJudgement, MoodTag, Participant, Turn

pytestmark = pytest.mark.django_db(transaction=True)  # the server's steps commit


def test_every_write_of_a_message_is_stored_after_its_commit(upstream_study, live_participant):
    upstream_study.improver_endpoint = None  # no comparison: the submit needs no worker
    upstream_study.save()
    client = live_participant(upstream_study)
    client.onboard()
    assert client.put("drafts/message", {"data": {"text": "I am so nerv"}}).status == 200
    assert client.send("I am so nervous about tomorrow's exam.").names[-1] == "done"
    assert client.put("drafts/annotation:1", {"data": {"mood": "Nervous"}}).status == 200
    answers = client.valid_annotation(1)
    assert client.post("turns/1/annotation", answers).status == 200

    participant = Participant.objects.get(study=upstream_study)
    turn = Turn.objects.select_related("annotation").get(conversation__participant=participant)
    annotation = turn.annotation
    actions = set(
        AuditEntry.objects.filter(target_id__in=[str(turn.pk), str(annotation.pk)]).values_list(
            "action", flat=True
        )
    )
    assert {
        "annotations.turn.message",
        "annotations.turn.reply",
        "annotations.annotation.submit",
    } <= actions
    assert annotation.submitted_at is not None
    assert annotation.human_edited_reply == "What I would have liked to hear."
    assert annotation.timings == {"mood": 4.5}
    assert BehaviourJudgement.objects.filter(annotation=annotation).count() == len(
        answers["behaviour"]
    )
    assert list(
        MoodTag.objects.filter(annotation=annotation).values_list("intensity", flat=True)
    ) == [4]
    assert client.get("drafts").body == []  # both drafts cleared
    # The next message sees the stored submit (the turn order check reads it).
    assert client.send("Thanks, that helps.").names[-1] == "done"
