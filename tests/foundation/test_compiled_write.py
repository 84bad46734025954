"""``insert`` and ``update`` (attune_collect/compiled_write.py) store what ``save()`` stores, in
one statement, and hand back to ``save()`` whatever it would do differently."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Value
from django.db.models.expressions import DatabaseDefault
from django.db.models.signals import pre_save
from django.db.transaction import TransactionManagementError
from django.forms.models import model_to_dict
from django.utils import timezone

from annotations.models import AuditEntry, Conversation, Participant, Turn, TurnStatus
from annotations.services.model_configs import snapshot
from attune_collect.compiled_write import insert, insert_many, update
from tests.factories import make_conversation

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversation(study) -> Conversation:
    return make_conversation(study, n_turns=1)


def _turn(conversation: Conversation, number: int, **fields) -> Turn:
    now = timezone.now()
    return Turn(
        conversation=conversation,
        number=number,
        user_message="ça va? 🙂",
        status=TurnStatus.STREAMING,
        idempotency_key=f"key-{number}",
        started_at=now,
        lease_expires_at=now + timedelta(seconds=30),
        cost_usd=Decimal("0.000125"),
        other={"nested": [1, "two", None]},
        **fields,
    )


def _stored(obj) -> dict:
    row = type(obj).objects.get(pk=obj.pk)
    return {k: v for k, v in model_to_dict(row).items() if k != "id"}


def test_an_inserted_row_is_the_row_save_stores(conversation, django_assert_num_queries):
    with django_assert_num_queries(1):
        fast = insert(_turn(conversation, 2))
    slow = _turn(conversation, 3)
    slow.save()
    assert fast.pk is not None and fast.pk != slow.pk
    assert not fast._state.adding and fast._state.db == "default"
    expected = _stored(slow) | {"number": 2, "idempotency_key": "key-2"}
    assert _stored(fast) == expected | {
        "started_at": fast.started_at,
        "lease_expires_at": fast.lease_expires_at,
    }


def test_auto_now_add_and_defaults_are_filled(django_assert_num_queries):
    before = timezone.now()
    with django_assert_num_queries(1):
        entry = insert(AuditEntry(action="tests.insert", actor_label="system"))
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert stored.created_at >= before and stored.created_at == entry.created_at
    assert stored.data == {} and stored.target_type == "" and stored.actor is None


def test_an_update_writes_only_the_named_fields(conversation, django_assert_num_queries):
    turn = conversation.turns.get()
    turn.model_reply = "a new reply"
    turn.error = "not written"
    turn.other = {"x": 1}
    with django_assert_num_queries(1):
        update(turn, ["model_reply", "other"])
    stored = Turn.objects.get(pk=turn.pk)
    assert stored.model_reply == "a new reply" and stored.other == {"x": 1}
    assert stored.error == ""


def test_auto_now_is_set_when_named(conversation):
    old = conversation.updated_at
    conversation.model_version = "m-2"
    update(conversation, ["model_version", "updated_at"])
    stored = Conversation.objects.get(pk=conversation.pk)
    assert stored.model_version == "m-2" and stored.updated_at > old
    assert stored.updated_at == conversation.updated_at


def test_an_update_that_finds_no_row_raises_and_marks_the_block_for_rollback(conversation):
    turn = conversation.turns.get()
    Turn.objects.filter(pk=turn.pk).delete()
    with transaction.atomic():
        with pytest.raises(Turn.NotUpdated, match="did not affect any rows"):
            update(turn, ["error"])
        assert transaction.get_connection().needs_rollback


def test_a_database_error_marks_the_block_for_rollback_as_save_does(conversation):
    with transaction.atomic():
        with pytest.raises(IntegrityError):
            insert(_turn(conversation, 1))  # the factory's turn has number 1
        with pytest.raises(TransactionManagementError):
            Turn.objects.count()


def test_an_unsaved_related_object_is_refused_as_save_refuses(study):
    unsaved = Conversation(study=study)
    with pytest.raises(ValueError, match="unsaved related object"):
        insert(_turn(unsaved, 1))
    assert not Turn.objects.filter(user_message="ça va? 🙂").exists()


def test_a_field_that_is_not_a_column_is_refused(conversation):
    turn = conversation.turns.get()
    with pytest.raises(ValueError, match="not a column"):
        update(turn, ["annotation"])
    with pytest.raises(ValueError, match="at least one field"):
        update(turn, [])


def test_a_pre_save_receiver_is_sent_through_save(conversation):
    seen = []

    def receiver(sender, instance, update_fields, **kwargs):
        seen.append((sender, update_fields))

    pre_save.connect(receiver, sender=Turn)
    try:
        turn = insert(_turn(conversation, 2))
        turn.error = "x"
        update(turn, ["error"])
    finally:
        pre_save.disconnect(receiver, sender=Turn)
    assert seen == [(Turn, None), (Turn, frozenset({"error"}))]


def test_a_model_with_database_defaults_is_compiled_and_stores_what_save_stores(
    study, django_assert_num_queries
):
    """Columns added with ``db_default`` (a rolling deploy's defaults, annotations 0020) are
    returned by ``save()``; the instance holds their value, so they are written as sent."""
    fields = {"study": study, "consented_at": timezone.now()}
    with django_assert_num_queries(1):
        fast = insert(Participant(pseudonym="p-fast", **fields))
    slow = Participant(pseudonym="p-slow", **fields)
    slow.save()
    assert _stored(fast) == _stored(slow) | {"pseudonym": "p-fast"}
    fast.withdrawn = True
    with django_assert_num_queries(1):
        update(fast, ["withdrawn"])
    assert Participant.objects.get(pk=fast.pk).withdrawn


def test_an_unset_database_default_goes_through_save(study):
    participant = Participant(study=study, pseudonym="p-db-default")
    field = Participant._meta.get_field("comprehension_attempts")
    participant.comprehension_attempts = DatabaseDefault(Value(0), output_field=field)
    insert(participant)
    participant.refresh_from_db()
    assert participant.comprehension_attempts == 0


def test_an_expression_value_goes_through_save(conversation):
    turn = conversation.turns.get()
    turn.attempts = F("attempts") + 2
    update(turn, ["attempts"])
    assert Turn.objects.get(pk=turn.pk).attempts == 2


def test_a_model_with_its_own_save_keeps_it(db):
    config = snapshot({"endpoint": {"model": "openai/test"}})
    config.definition = {**config.definition, "changed": True}
    with pytest.raises(Exception, match="never changes"):
        update(config, ["definition"])


def test_a_set_primary_key_is_inserted_by_save(conversation):
    top = Turn.objects.order_by("-pk").values_list("pk", flat=True).first()
    turn = _turn(conversation, 5)
    turn.pk = top + 100
    insert(turn)
    assert Turn.objects.filter(pk=top + 100, number=5).exists()


class TestInsertMany:
    def test_rows_are_stored_in_one_statement_with_their_keys(
        self, conversation, django_assert_num_queries
    ):
        turns = [_turn(conversation, n) for n in (2, 3, 4)]
        with django_assert_num_queries(1):
            stored = insert_many(turns)
        assert stored == turns
        assert [t.pk for t in turns] == sorted(t.pk for t in turns)
        for turn in turns:
            assert not turn._state.adding
            assert Turn.objects.get(pk=turn.pk).number == turn.number

    def test_the_rows_are_those_bulk_create_stores(self, conversation):
        fast = insert_many([_turn(conversation, 2)])
        slow = Turn.objects.bulk_create([_turn(conversation, 3)])
        expected = _stored(slow[0]) | {"number": 2, "idempotency_key": "key-2"}
        assert _stored(fast[0]) == expected | {
            "started_at": fast[0].started_at,
            "lease_expires_at": fast[0].lease_expires_at,
        }

    def test_nothing_to_insert_runs_no_statement(self, django_assert_num_queries):
        with django_assert_num_queries(0):
            assert insert_many([]) == []

    def test_one_bad_row_stores_none(self, conversation):
        with pytest.raises(IntegrityError), transaction.atomic():
            insert_many([_turn(conversation, 2), _turn(conversation, 1)])
        assert list(conversation.turns.values_list("number", flat=True)) == [1]

    def test_an_unsaved_related_object_is_refused_as_bulk_create_refuses(self, study):
        with pytest.raises(ValueError, match=r"bulk_create\(\) prohibited"):
            insert_many([_turn(Conversation(study=study), 1)])

    def test_more_values_than_one_statement_takes_go_through_bulk_create(
        self, conversation, monkeypatch
    ):
        # Django splits what exceeds the database's parameter limit into batches.
        monkeypatch.setattr(type(connection.features), "max_query_params", 20)
        turns = insert_many([_turn(conversation, n) for n in range(2, 6)])
        assert sorted(conversation.turns.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
        assert all(t.pk is not None for t in turns)
