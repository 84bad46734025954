"""The comparison's second reply is asked for as soon as the reply is stored: its task is sent
when the reply's transaction commits (so the worker sees the turn), not before and not later,
with no delay."""

import pytest

from annotations.dispatch import IMPROVE_REPLY
from annotations.services import chat
from annotations.services.participant_sessions import participant_for_token
from attune_collect.celery import app as celery_app
from tests.factories import unique
from tests.participant.conftest import fake_completion

pytestmark = pytest.mark.django_db


def test_the_improver_is_sent_when_the_reply_commits(
    participant_client, django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    monkeypatch.setattr(
        celery_app,
        "send_task",
        lambda name, args=(), **options: sent.append((name, list(args), options)),
    )
    client = participant_client()
    client.onboard()
    participant = participant_for_token(client.token)
    with django_capture_on_commit_callbacks(execute=False) as at_commit:
        plan = chat.accept_message(participant, "I feel nervous about work.", unique("key-ab"))
        assert chat.record_reply(plan.turn_id, fake_completion("That sounds hard.")) is not None
    assert not [name for name, _, _ in sent if name == IMPROVE_REPLY]  # nothing before commit
    for callback in at_commit:
        callback()
    improver = [(args, options) for name, args, options in sent if name == IMPROVE_REPLY]
    assert improver == [([plan.turn_id], {"queue": None, "countdown": None, "ignore_result": True})]
