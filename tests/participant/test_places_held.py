"""A study's place is held by a participant who consented and is still in (not withdrawn, not
screened out): a start that never consented holds none, and one PROLIFIC_PID holds one place
however many fresh sessions it starts."""

import pytest

from annotations.models import ReturningLinkPolicy
from tests.participant.client import DjangoTransport, ParticipantClient
from tests.participant.starts import new_pid

pytestmark = pytest.mark.django_db


def consent(client: ParticipantClient) -> dict:
    reply = client.post("consent", {"consent_version": "2", "agree": True})
    assert reply.status == 200, reply.body
    return reply.body


def test_starts_that_never_consented_hold_no_place(make_chat_study, participant_client):
    study = make_chat_study(target_participants=1)
    for _ in range(3):
        assert participant_client(study).start().status == 201
    last = participant_client(study)
    assert last.start().status == 201
    assert consent(last)["step"] != "screened_out"
    assert participant_client(study).start().error["code"] == "study_full"


def test_a_fresh_session_of_the_same_id_takes_no_second_place(make_chat_study, participant_client):
    study = make_chat_study(target_participants=2, returning_link_policy=ReturningLinkPolicy.FRESH)
    pid = new_pid()
    first = participant_client(study, pid)
    assert first.start().status == 201
    consent(first)
    # The same PROLIFIC_PID from another browser, proving nothing: a fresh session.
    again = ParticipantClient(DjangoTransport(), study.slug, pid)
    assert again.start(session_id="OTHER").status == 201
    assert consent(again)["step"] != "screened_out"
    other = participant_client(study)
    assert other.start().status == 201  # one place of two is taken, not two
    assert consent(other)["step"] != "screened_out"
