"""What one message costs the database: the statements of the stream (accept the message, store
the reply, open the annotation step) and of the annotation submit, counted on every connection
of the live server, pool threads included (issue 16: the cost per message decides whether a
Prolific launch holds)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from django.db import connections
from django.db.backends.signals import connection_created

pytestmark = pytest.mark.django_db(transaction=True)


TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


class StatementLog:
    def __init__(self) -> None:
        self.statements: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, execute, sql, params, many, context):
        if not sql.lstrip().upper().startswith(TRANSACTION_CONTROL):  # SQLite's BEGIN IMMEDIATE
            with self._lock:
                self.statements.append(sql)
        return execute(sql, params, many, context)


@pytest.fixture
def statement_log() -> Iterator[StatementLog]:
    log = StatementLog()
    wrapped = []  # the pool threads keep their connection objects: unwrap them all afterwards

    def wrap(sender, connection, **kwargs) -> None:
        connection.execute_wrappers.append(log)
        wrapped.append(connection)

    connection_created.connect(wrap)
    for connection in connections.all(initialized_only=True):
        wrap(None, connection)
    try:
        yield log
    finally:
        connection_created.disconnect(wrap)
        for connection in wrapped:
            connection.execute_wrappers.remove(log)


# What a message needs today: the stream authenticates (1), finds the conversation and its
# turns (2), stores the turn, its audit entry and clears the typed draft (3), then stores the
# reply: the turn locked and updated (2), its audit entry (1), the study's question rotation
# moved (1, UPDATE ... RETURNING) and the annotation step created (1). The submit authenticates
# (1), finds the conversation and the step (2), stores the mood tags, the 36 answers in one
# statement, the step (3), the audit entry and clears the draft (2). A change that adds one
# fails here: every participant of a launch pays for it.
STREAM_BUDGET = 11
SUBMIT_BUDGET = 8


def test_a_message_costs_a_fixed_number_of_statements(
    upstream_study, live_participant, statement_log
):
    upstream_study.improver_endpoint = None  # the improver's worker is not part of the request
    upstream_study.save()
    client = live_participant(upstream_study)
    client.onboard()
    assert client.send("warm up").names[-1] == "done"
    assert client.annotate(1).status == 200

    statement_log.statements.clear()
    assert client.send("I am so nervous about tomorrow's exam.").names[-1] == "done"
    stream = list(statement_log.statements)
    answers = client.valid_annotation(2)  # reads the step: not part of the submit
    statement_log.statements.clear()
    assert client.post("turns/2/annotation", answers).status == 200
    submit = list(statement_log.statements)

    assert len(stream) <= STREAM_BUDGET, "\n".join(sql[:100] for sql in stream)
    assert len(submit) <= SUBMIT_BUDGET, "\n".join(sql[:100] for sql in submit)
    assert any("RETURNING" in sql and "questionrotation" in sql for sql in stream)
