"""The participant API's hot reads run SQL compiled once per connection
(``attune_collect/compiled_query.py``): each must give the instances the ORM gives for the same
QuerySet, field for field, with the same related objects and annotations, and lock what the ORM
locked."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import F, Model
from django.test.utils import CaptureQueriesContext

from annotations.models import Conversation, ParticipantSession, Turn, TurnAnnotation
from annotations.services import annotation_flow, chat
from annotations.services.errors import FlowError
from annotations.services.participant_sessions import hash_token, participant_for_token
from annotations.services.participants import _LATEST_CONVERSATION, current_conversation
from attune_collect.compiled_query import CompiledQuery

pytestmark = pytest.mark.django_db


def snapshot(obj: Model | None, skip: frozenset[str] = frozenset(), seen: tuple = ()) -> Any:
    """Every loaded field, annotation and select_related object, as plain values (``skip``:
    cached relations left out, as those a related manager sets back to its owner; an object
    met again on the way down, as a one-to-one's reverse side, by its model and key)."""
    if obj is None:
        return None
    if any(obj is other for other in seen):
        return (type(obj).__name__, obj.pk)
    values = {k: v for k, v in obj.__dict__.items() if k != "_state"}
    cached = obj._state.fields_cache.items()
    related = {name: snapshot(o, seen=(*seen, obj)) for name, o in cached if name not in skip}
    return {"model": type(obj).__name__, "values": values, "related": related}


@pytest.fixture
def chatting(participant_client, answered_turn):
    client = participant_client()
    client.onboard()
    assert client.annotate(answered_turn(client)).status == 200
    answered_turn(client, "And my sleep is bad.", "That sounds exhausting.")
    return client


def test_the_session_lookup_gives_what_the_orm_gives(chatting):
    participant = participant_for_token(chatting.token)
    orm = ParticipantSession.objects.select_related("participant__study").get(
        token_hash=hash_token(chatting.token), revoked_at__isnull=True
    )
    assert snapshot(participant) == snapshot(orm.participant)
    assert participant.study.instrument_id == orm.participant.study.instrument_id


def test_a_revoked_or_unknown_token_finds_no_one(chatting):
    ParticipantSession.objects.update(revoked_at=F("created_at"))
    assert participant_for_token(chatting.token) is None
    assert participant_for_token("not-a-token") is None


@pytest.mark.parametrize("with_model", [False, True])
@pytest.mark.parametrize("study_loaded", [False, True])
def test_the_latest_conversation_is_the_orms(chatting, with_model, study_loaded):
    participant = participant_for_token(chatting.token)
    if not study_loaded:
        participant.refresh_from_db()  # drops the cached study: the query joins it
    query = Conversation.objects.filter(participant=participant).order_by("-pk")
    if with_model:
        query = query.select_related("model_endpoint", "model_config")
    expected = query.select_related("study").first()
    found = current_conversation(participant, with_model=with_model)
    assert snapshot(found) == snapshot(expected)


def test_locking_reads_lock(chatting):
    participant = participant_for_token(chatting.token)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert current_conversation(participant, lock=True) is not None
        step = annotation_flow.step_of_turn(
            current_conversation(participant, lock=True), 2, lock=True
        )
    if connection.features.has_select_for_update:
        assert all("FOR UPDATE" in query["sql"] for query in queries.captured_queries)
    assert step.turn.number == 2


def test_the_annotation_step_of_a_turn_is_the_orms(chatting):
    participant = participant_for_token(chatting.token)
    conversation = current_conversation(participant)
    expected = TurnAnnotation.objects.select_related("turn").get(
        turn__conversation=conversation, turn__number=2
    )
    found = annotation_flow.step_of_turn(conversation, 2)
    assert found.turn.conversation is conversation
    found.turn._state.fields_cache.pop("conversation")  # set by step_of_turn, not read
    assert snapshot(found) == snapshot(expected)


@pytest.mark.parametrize("number", [0, 3, 32768, 2**40])
def test_a_turn_that_is_not_there_has_no_step(chatting, number):
    conversation = current_conversation(participant_for_token(chatting.token))
    with pytest.raises(FlowError) as refused:
        annotation_flow.step_of_turn(conversation, number)
    assert refused.value.code == "not_found"
    assert chatting.get(f"turns/{number}/annotation").status == 404


def test_the_turns_of_a_message_carry_when_each_was_answered(chatting):
    conversation = current_conversation(participant_for_token(chatting.token))
    expected = list(
        conversation.turns.annotate(answered_at=F("annotation__submitted_at")).order_by("number")
    )
    found = chat._TURNS_ANSWERED.all(conversation.pk)
    mine = frozenset({"conversation"})  # the related manager's, set by accept_message
    assert [snapshot(t) for t in found] == [snapshot(t, mine) for t in expected]
    assert [t.answered_at for t in found] == [
        TurnAnnotation.objects.get(turn=t).submitted_at for t in expected
    ]


def test_the_turn_a_reply_settles_carries_its_conversation_and_study(chatting):
    turn = Turn.objects.get(number=2)
    expected = Turn.objects.select_related("conversation__study").get(pk=turn.pk)
    with transaction.atomic():
        found = chat._TURN_TO_SETTLE.first(turn.pk)
        assert chat._TURN_TO_SETTLE.first(turn.pk + 1000) is None
    assert snapshot(found) == snapshot(expected)


def test_the_sql_is_built_once_per_connection(chatting, monkeypatch):
    participant = participant_for_token(chatting.token)  # its study is loaded with it
    current_conversation(participant)  # compiled on this connection by now
    query = _LATEST_CONVERSATION[(False, False, False)]
    monkeypatch.setattr(query, "_build", lambda *values: pytest.fail("built again"))
    assert current_conversation(participant).participant_id == participant.pk


def test_it_reads_the_new_value_every_call(chatting):
    other = CompiledQuery(lambda number: Turn.objects.filter(number=number).order_by("pk"))
    assert [t.number for t in other.all(1)] == [1]
    assert [t.number for t in other.all(2)] == [2]
    assert other.all(3) == []
