"""A PROLIFIC_PID alone never resumes someone's session: Prolific ids are not secrets. The
browser's own token or the SESSION_ID the participant started with resumes; anything else is
refused (or screened out) as the study configures, and shows nothing of the earlier session."""

import pytest

from annotations.models import Participant, ParticipantSession, ReturningLinkPolicy

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(participant_client, answered_turn):
    """A participant well into the chat, from a link with SESSION_ID 'SESSION1'."""
    first = participant_client()
    first.onboard()
    answered_turn(first, "my secret worry")
    return first


@pytest.mark.parametrize("session_id", ["SESSION2", ""])
def test_the_pid_with_another_session_is_refused(started, participant_client, session_id):
    stranger = participant_client(pid=started.pid)
    reply = stranger.start(session_id=session_id)
    assert reply.status == 403 and reply.error["code"] == "already_started"
    assert "token" not in reply.body and "my secret worry" not in str(reply.body)
    assert stranger.token is None
    assert ParticipantSession.objects.filter(participant__prolific_pid=started.pid).count() == 1


def test_the_pid_with_its_own_session_id_resumes(started, participant_client):
    again = participant_client(pid=started.pid)
    reply = again.start(session_id="SESSION1")
    assert reply.status == 200 and reply.body["session"]["step"] == "chat"
    assert "my secret worry" in str(again.session())  # the same person sees their chat


def test_the_browsers_own_token_resumes(started, participant_client):
    body = {"prolific_pid": started.pid, "study_id": "STUDY1", "session_id": "OTHER"}
    reply = started.transport.request(
        "POST", f"/api/study/{started.slug}/start", body, started.headers
    )
    assert reply.status == 200 and reply.body["token"] != started.token


def test_another_participants_token_does_not_resume(started, participant_client):
    other = participant_client()
    other.start()
    body = {"prolific_pid": started.pid, "study_id": "STUDY1", "session_id": "OTHER"}
    reply = other.transport.request("POST", f"/api/study/{started.slug}/start", body, other.headers)
    assert reply.status == 403 and reply.error["code"] == "already_started"


def test_the_study_may_screen_out_instead(chat_study, started, participant_client):
    chat_study.returning_link_policy = ReturningLinkPolicy.SCREEN_OUT
    chat_study.save()
    reply = participant_client(pid=started.pid).start(session_id="SESSION9")
    assert reply.status == 403 and reply.error["code"] == "screened_out"
    assert reply.error["screenout_code"] == chat_study.screenout_code
    participant = Participant.objects.get(prolific_pid=started.pid)
    assert participant.screened_out_at is None  # the real participant goes on undisturbed
    assert started.session()["step"] == "chat"
