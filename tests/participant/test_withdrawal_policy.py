"""After withdrawal the participant's token reads nothing, and the study's withdrawal policy
(keep out of releases, or erase the content) is applied and recorded in the audit log."""

import pytest

from annotations.models import (
    AuditEntry,
    ConversationWideAnswers,
    PanasResponse,
    Participant,
    ParticipantDraft,
    Turn,
    TurnAnnotation,
    WithdrawalPolicy,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def withdrawn(participant_client, answered_turn):
    def make(study_policy: str, chat_study):
        chat_study.withdrawal_policy = study_policy
        chat_study.save()
        client = participant_client()
        client.onboard()
        number = answered_turn(client, "my secret worry")
        assert client.annotate(number).status == 200
        assert client.put("drafts/message", {"data": {"text": "half a sentence"}}).status == 200
        assert client.post("withdraw", {"confirm": True}).status == 200
        return client, Participant.objects.get(prolific_pid=client.pid)

    return make


@pytest.mark.parametrize("policy", WithdrawalPolicy.values)
def test_the_token_reads_nothing_after_withdrawal(withdrawn, chat_study, policy):
    client, _ = withdrawn(policy, chat_study)
    for path in ("turns/1", "turns/1/annotation", "drafts"):
        reply = client.get(path)
        assert reply.status == 403 and reply.error["code"] == "withdrawn", path
    session = client.session()
    assert session["step"] == "withdrawn" and "my secret worry" not in str(session)
    assert client.put("drafts/message", {"data": {"text": "more"}}).status == 403


def test_exclude_keeps_the_rows_and_records_the_policy(withdrawn, chat_study):
    _, participant = withdrawn(WithdrawalPolicy.EXCLUDE, chat_study)
    assert Turn.objects.get(conversation__participant=participant).user_message == "my secret worry"
    entry = AuditEntry.objects.get(
        action="annotations.participant.withdraw", target_id=str(participant.pk)
    )
    assert entry.data["policy"] == "exclude"
    assert not ParticipantDraft.objects.filter(participant=participant).exists()


def test_erase_removes_the_content_and_records_it(withdrawn, chat_study):
    _, participant = withdrawn(WithdrawalPolicy.ERASE, chat_study)
    turn = Turn.objects.get(conversation__participant=participant)
    assert (turn.user_message, turn.model_reply) == ("", "")
    assert not TurnAnnotation.objects.filter(turn=turn).exists()
    assert not PanasResponse.objects.filter(conversation__participant=participant).exists()
    assert not ConversationWideAnswers.objects.filter(
        conversation__participant=participant
    ).exists()
    assert (participant.age, participant.traits, participant.goals) == (None, [], [])
    assert not ParticipantDraft.objects.filter(participant=participant).exists()
    entry = AuditEntry.objects.get(
        action="annotations.participant.withdraw", target_id=str(participant.pk)
    )
    assert entry.data["policy"] == "erase" and entry.data["turns_erased"] == 1
