"""Writes that ride the COMMIT (attune_collect/commit_tail.py): kept for the outermost
``atomic`` block's COMMIT on PostgreSQL, sent at once wherever keeping them could change what
a caller sees."""

from __future__ import annotations

import pytest
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.test.utils import CaptureQueriesContext

from annotations.audit_actions import AuditAction
from annotations.models import AuditEntry, Participant, ParticipantDraft
from annotations.services.audit import record_audit
from annotations.services.drafts import clear_drafts, save_draft
from attune_collect.commit_tail import rides_the_commit, write_at_commit
from attune_collect.compiled_write import insert_many, update
from tests.factories import make_participant

# A declared action (record_audit refuses any other) that nothing else here writes.
ACTION = AuditAction.PARTICIPANT_PROFILE.value
BAD_WRITE = 'INSERT INTO "annotations_auditentry" ("action") VALUES (%s)'  # no created_at


def _postgresql() -> None:
    if connections[DEFAULT_DB_ALIAS].vendor != "postgresql":
        pytest.skip("writes are kept for the COMMIT on PostgreSQL only")


def _entries() -> int:
    return AuditEntry.objects.filter(action=ACTION).count()


@pytest.mark.django_db(transaction=True)  # the blocks below are the outermost: they commit
class TestKeptForTheCommit:
    def test_a_kept_write_is_stored_by_the_commit_and_not_before(self):
        _postgresql()
        participant = make_participant()
        save_draft(participant, "message", {"text": "half a thought"})
        with transaction.atomic():
            entry = record_audit(ACTION, target=participant, data={"n": 1}, at_commit=True)
            clear_drafts(participant, "message", at_commit=True)
            assert len(connections[DEFAULT_DB_ALIAS].commit_tail._writes) == 2
            assert _entries() == 0  # not sent yet, not even to its own transaction
            assert ParticipantDraft.objects.filter(participant=participant).exists()
        assert entry.pk is None
        stored = AuditEntry.objects.get(action=ACTION)
        assert (stored.target_id, stored.data) == (str(participant.pk), {"n": 1})
        assert stored.created_at == entry.created_at
        assert not ParticipantDraft.objects.filter(participant=participant).exists()

    def test_compiled_inserts_and_updates_ride_it(self):
        _postgresql()
        participant = make_participant()
        first, second = (
            AuditEntry(action=ACTION, target_id=str(i), actor_label="test") for i in range(2)
        )
        with transaction.atomic():
            insert_many([first, second], at_commit=True)
            participant.withdrawn = True
            update(participant, ["withdrawn"], at_commit=True)  # a row the test holds
            assert _entries() == 0
            assert not Participant.objects.get(pk=participant.pk).withdrawn
        assert (first.pk, second.pk) == (None, None)  # unknown until the COMMIT
        stored = AuditEntry.objects.filter(action=ACTION).order_by("id")
        assert [entry.target_id for entry in stored] == ["0", "1"]
        assert Participant.objects.get(pk=participant.pk).withdrawn

    def test_a_rolled_back_block_sends_none_of_its_kept_writes(self):
        _postgresql()
        with pytest.raises(RuntimeError), transaction.atomic():
            record_audit(ACTION, at_commit=True)
            raise RuntimeError("the step fails after the write")
        assert _entries() == 0
        assert connections[DEFAULT_DB_ALIAS].commit_tail._writes == []
        with transaction.atomic():  # the next transaction starts clean
            record_audit(ACTION, at_commit=True)
        assert _entries() == 1

    def test_a_kept_write_that_fails_fails_the_commit_and_undoes_the_transaction(self):
        _postgresql()
        with pytest.raises(IntegrityError), transaction.atomic():
            record_audit(ACTION)  # sent at once, in the same transaction
            write_at_commit(BAD_WRITE, [ACTION])
        assert _entries() == 0
        record_audit(ACTION)  # the connection is usable again
        assert _entries() == 1

    def test_a_nested_block_writes_at_once(self):
        _postgresql()
        with transaction.atomic():
            assert rides_the_commit(connections[DEFAULT_DB_ALIAS])
            with transaction.atomic():  # a savepoint that may roll back alone
                record_audit(ACTION, at_commit=True)
                assert _entries() == 1
        assert _entries() == 1

    def test_a_watched_connection_writes_at_once(self):
        _postgresql()
        connection = connections[DEFAULT_DB_ALIAS]
        with CaptureQueriesContext(connection) as captured, transaction.atomic():
            record_audit(ACTION, at_commit=True)
            assert _entries() == 1
        assert any("annotations_auditentry" in query["sql"] for query in captured)

    def test_a_watch_started_after_the_write_still_sees_it(self):
        _postgresql()
        connection = connections[DEFAULT_DB_ALIAS]
        with transaction.atomic():
            record_audit(ACTION, at_commit=True)
            captured = CaptureQueriesContext(connection)
            captured.__enter__()
        captured.__exit__(None, None, None)
        assert _entries() == 1
        assert any("annotations_auditentry" in query["sql"] for query in captured)


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_a_write_runs_at_once():
    assert not rides_the_commit(connections[DEFAULT_DB_ALIAS])
    entry = record_audit(ACTION, at_commit=True)
    assert entry.pk is not None
    assert _entries() == 1


@pytest.mark.django_db(transaction=True)
def test_on_sqlite_a_write_in_a_transaction_runs_at_once():
    if connections[DEFAULT_DB_ALIAS].vendor != "sqlite":
        pytest.skip("PostgreSQL keeps it (TestKeptForTheCommit)")
    with transaction.atomic():
        record_audit(ACTION, at_commit=True)
        assert _entries() == 1


@pytest.mark.django_db  # a test's transaction: the service's block is nested in it
def test_inside_a_tests_transaction_a_write_runs_at_once():
    with transaction.atomic():
        entry = record_audit(ACTION, at_commit=True)
        assert _entries() == 1
    assert entry.pk is not None
