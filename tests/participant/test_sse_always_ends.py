"""Every chat stream ends with ``done`` or a clear ``error`` event, whatever fails after its
``turn`` event: an error raised after the reply's commit still ends with ``done`` (the turn is
stored), a failure to store the reply ends with ``error`` (the turn left retryable), even when
the failure cannot be recorded either."""

import pytest
from django.db import DatabaseError

from annotations.models import Turn, TurnStatus
from annotations.services import chat

pytestmark = pytest.mark.django_db(transaction=True)

MESSAGE = "Work has been overwhelming lately."


@pytest.fixture
def client(chat_study, live_participant):
    client = live_participant(chat_study)
    client.onboard()
    return client


def _fails(*args, **kwargs):
    raise DatabaseError("server closed the connection unexpectedly")


def test_an_error_after_the_commit_still_ends_with_done(client, monkeypatch):
    store = chat.record_reply

    def stored_then_raises(*args, **kwargs):
        store(*args, **kwargs)
        raise RuntimeError("raised after the commit")

    monkeypatch.setattr(chat, "record_reply", stored_then_raises)
    result = client.send(MESSAGE)
    assert result.names[-1] == "done" and "error" not in result.names
    assert result.data("done")["turn"]["status"] == TurnStatus.DONE
    assert Turn.objects.get().status == TurnStatus.DONE


def test_a_reply_that_cannot_be_stored_ends_with_error(client, monkeypatch):
    monkeypatch.setattr(chat, "record_reply", _fails)
    result = client.send(MESSAGE)
    assert result.names[-1] == "error" and "done" not in result.names
    error = result.data("error")
    assert error["error"]["reason"] == "internal" and error["error"]["retryable"] is True
    assert Turn.objects.get().status == TurnStatus.FAILED  # retryable at once


def test_it_ends_with_error_even_when_the_failure_cannot_be_recorded(client, monkeypatch):
    monkeypatch.setattr(chat, "record_reply", _fails)
    monkeypatch.setattr(chat, "record_failure", _fails)
    result = client.send(MESSAGE)
    assert result.names[-1] == "error"
    assert result.data("error")["turn"]["status"] == TurnStatus.FAILED
