"""A task is sent after the commit, and a broker error then is logged, never raised: the
caller's work is committed, so an exception could only break its response (the sweep sends the
lost task again, tests of each task kind show it)."""

import logging

import pytest
from django.db import transaction

from attune_collect.dispatch import send, send_on_commit
from tests.conftest import broker_down

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_send_to_a_broker_that_is_down_is_logged_not_raised(caplog):
    with broker_down(), caplog.at_level(logging.ERROR, logger="attune_collect.dispatch"):
        assert send("annotations.improve_reply", 7) is False
    assert "annotations.improve_reply(7,)" in caplog.text
    assert "the periodic sweep sends it again" in caplog.text


def test_a_send_after_commit_does_not_fail_the_transaction_that_asked(caplog):
    with (
        broker_down(),
        caplog.at_level(logging.ERROR, logger="attune_collect.dispatch"),
        transaction.atomic(),
    ):
        send_on_commit("qa.compute_flags", 3)
    # reached: the commit and its callbacks raised nothing
    assert "qa.compute_flags(3,)" in caplog.text


def test_the_message_waits_for_the_commit(sent_tasks):
    with transaction.atomic():
        send_on_commit("releases.build", 5, queue="builds")
        assert sent_tasks["releases.build"] == []
    assert sent_tasks["releases.build"] == [5]
