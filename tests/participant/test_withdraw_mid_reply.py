"""A participant who withdraws while a reply streams (the Withdraw button sits on the support
banner a risky message brings up) keeps what they asked for: the reply that arrives afterwards
is not stored, no annotation step or improver call is opened for it, and under the erase policy
the turn stays erased. A reply stored just before the withdrawal is erased with the rest, and
the improver makes no model call for a withdrawn participant."""

import httpx
import pytest
from django.db import transaction

from annotations.models import AuditEntry, Participant, Turn, TurnAnnotation, TurnStatus
from annotations.models import WithdrawalPolicy as Policy
from annotations.services import chat, participants
from annotations.services.improver import run_improver
from annotations.services.withdrawal import WITHDREW_MID_REPLY
from tests.participant.conftest import fake_completion
from tests.threads import in_a_thread, until_another_waits_for_a_lock

IMPROVE = "annotations.improve_reply"


def _participant(client) -> Participant:
    return Participant.objects.get(prolific_pid=client.pid)


@pytest.mark.django_db(transaction=True)
def test_the_stream_ends_with_nothing_kept(
    upstream_study, live_participant, openai_server, asgi_server, sent_tasks
):
    upstream_study.withdrawal_policy = Policy.ERASE
    upstream_study.save()
    openai_server.behaviour.token_delay_s = 0.2
    client = live_participant(upstream_study)
    client.onboard()
    body = {"text": "my boss shouts at me every day", "idempotency_key": "key-withdraw-mid-1"}
    events = []
    with (
        httpx.Client(base_url=asgi_server, timeout=10) as http,
        http.stream("POST", "/api/study/messages", json=body, headers=client.headers) as response,
    ):
        withdrawn = False
        for line in response.iter_lines():
            if line.startswith("event:"):
                events.append(line[6:].strip())
            if line.startswith("data:") and events[-1] == "error":
                events.append(line)
            if events and events[-1] == "delta" and not withdrawn:
                assert client.post("withdraw", {"confirm": True}).status == 200
                withdrawn = True
    assert events[-2] == "error" and '"reason":"withdrawn"' in events[-1].replace(" ", "")
    assert '"retryable":false' in events[-1].replace(" ", "")
    turn = Turn.objects.get()
    assert (turn.status, turn.user_message, turn.model_reply) == (TurnStatus.FAILED, "", "")
    assert turn.error == WITHDREW_MID_REPLY
    assert not TurnAnnotation.objects.exists()
    assert not sent_tasks[IMPROVE]


@pytest.mark.django_db
@pytest.mark.parametrize("policy", Policy.values)
def test_a_reply_after_withdrawal_is_not_stored(participant_client, chat_study, sent_tasks, policy):
    chat_study.withdrawal_policy = policy
    chat_study.save()
    client = participant_client()
    client.onboard()
    plan = chat.accept_message(_participant(client), "my secret worry", "key-withdraw-mid-2")
    participants.withdraw(_participant(client))
    assert chat.record_reply(plan.turn_id, fake_completion("About your secret worry...")) is None
    turn = Turn.objects.get(pk=plan.turn_id)
    assert (turn.status, turn.model_reply, turn.error) == (
        TurnStatus.FAILED,
        "",
        WITHDREW_MID_REPLY,
    )
    assert turn.user_message == ("" if policy == Policy.ERASE else "my secret worry")
    assert not TurnAnnotation.objects.filter(turn=turn).exists()
    assert not sent_tasks[IMPROVE]
    entry = AuditEntry.objects.get(action="annotations.participant.withdraw")
    assert entry.data["replies_stopped"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_reply_being_stored_is_erased_with_the_rest(participant_client, chat_study, sent_tasks):
    """The reply's step holds the turn when the participant withdraws: the withdrawal waits
    for it and then erases the reply and its annotation step too (PostgreSQL; SQLite runs the
    two one after the other anyway)."""
    chat_study.withdrawal_policy = Policy.ERASE
    chat_study.save()
    client = participant_client()
    client.onboard()
    participant = _participant(client)
    plan = chat.accept_message(participant, "my secret worry", "key-withdraw-mid-3")
    with transaction.atomic():
        assert chat.record_reply(plan.turn_id, fake_completion("About your worry...")) is not None
        leaving = in_a_thread(lambda: participants.withdraw(participant))
        until_another_waits_for_a_lock()
    leaving.join(timeout=20)
    turn = Turn.objects.get(pk=plan.turn_id)
    assert (turn.user_message, turn.model_reply) == ("", "")
    assert not TurnAnnotation.objects.filter(turn=turn).exists()
    assert _participant(client).withdrawn
    assert run_improver(plan.turn_id) == "skipped"


@pytest.mark.django_db
def test_the_improver_makes_no_call_for_a_withdrawn_participant(participant_client, chat_study):
    chat_study.withdrawal_policy = Policy.EXCLUDE
    chat_study.save()
    client = participant_client()
    client.onboard()
    plan = chat.accept_message(_participant(client), "my secret worry", "key-withdraw-mid-4")
    assert chat.record_reply(plan.turn_id, fake_completion("About your worry...")) is not None
    participants.withdraw(_participant(client))
    assert run_improver(plan.turn_id) == "skipped"
    annotation = TurnAnnotation.objects.get(turn_id=plan.turn_id)
    assert annotation.improved_status == "failed" and not annotation.llm_improved_reply
    assert annotation.improved_meta["error"] == "the participant withdrew"
