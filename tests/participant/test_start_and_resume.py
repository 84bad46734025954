"""Starting from a study link: the same PROLIFIC_PID resumes the same record; a study that is
not recruiting, or full, answers clearly."""

import pytest

from annotations.models import AuditEntry, Participant, ParticipantSession, StudyStatus
from tests.factories import make_participant

pytestmark = pytest.mark.django_db


def test_start_creates_a_participant_and_a_session(participant_client):
    client = participant_client()
    reply = client.start()
    assert reply.status == 201
    assert reply.body["session"]["step"] == "consent"
    assert reply.body["session"]["study"]["consent_version"] == "2"
    participant = Participant.objects.get(prolific_pid=client.pid)
    assert (participant.prolific_study_id, participant.prolific_session_id) == (
        "STUDY1",
        "SESSION1",
    )
    assert not participant.is_preview
    assert AuditEntry.objects.filter(
        action="annotations.participant.start", target_id=str(participant.pk)
    ).exists()


def test_the_same_pid_resumes_the_same_record(participant_client):
    first = participant_client()
    first.onboard()
    again = participant_client(pid=first.pid)
    reply = again.start(session_id="SESSION1")  # another tab of the same Prolific session
    assert reply.status == 200  # resumed, not created
    assert reply.body["session"]["step"] == "chat"
    assert Participant.objects.filter(prolific_pid=first.pid).count() == 1
    assert again.token != first.token
    assert first.session()["step"] == "chat"  # the first device's session still works
    assert ParticipantSession.objects.filter(participant__prolific_pid=first.pid).count() == 2


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (StudyStatus.CLOSED, "study_closed"),
        (StudyStatus.DRAFT, "study_closed"),
        (StudyStatus.PAUSED, "study_paused"),
    ],
)
def test_a_study_that_is_not_recruiting_refuses_newcomers(
    chat_study, participant_client, status, code
):
    chat_study.status = status
    chat_study.save()
    reply = participant_client().start()
    assert reply.status == 403
    assert reply.error["code"] == code and reply.error["message"]
    assert not Participant.objects.filter(study=chat_study).exists()


def test_a_paused_study_lets_a_returning_participant_finish(chat_study, participant_client):
    client = participant_client()
    client.onboard()
    chat_study.status = StudyStatus.PAUSED
    chat_study.save()
    assert participant_client(pid=client.pid).start().status == 200


def test_a_full_study_answers_with_the_screenout_code(make_chat_study, participant_client):
    study = make_chat_study(target_participants=1)
    first = participant_client(study)
    first.onboard()
    reply = participant_client(study).start()
    assert reply.status == 403
    assert reply.error["code"] == "study_full"
    assert reply.error["screenout_code"] == "SCR33N"


def test_preview_participants_do_not_fill_a_study(make_chat_study, participant_client):
    study = make_chat_study(target_participants=1)
    make_participant(study, is_preview=True, consent_version="2").__class__.objects.filter(
        study=study
    ).update(consented_at="2026-01-01T00:00:00Z")
    assert participant_client(study).start().status == 201


@pytest.mark.parametrize("pid", ["", "has space", "x" * 65, "semi;colon"])
def test_a_malformed_pid_is_refused_naming_the_field(participant_client, pid):
    reply = participant_client(pid=pid).start()
    assert reply.status == 400
    assert reply.error["code"] == "invalid" and reply.error["field"] == "prolific_pid"


def test_an_unknown_study_is_not_found(participant_client, chat_study):
    client = participant_client()
    client.slug = "no-such-study"
    reply = client.start()
    assert reply.status == 404 and reply.error["code"] == "not_found"
