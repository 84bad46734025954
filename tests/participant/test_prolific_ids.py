"""A Prolific study refuses a PROLIFIC_PID Prolific cannot have written (24 lowercase hex digits)
before anything is created; a study recruited by another link takes any well-formed id."""

import pytest

from annotations.models import Participant, Recruitment
from tests.participant.starts import start_from

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "pid",
    ["PID-123", "5f1a2b3c4d5e6f7a8b9c0d1E", "5f1a2b3c4d5e6f7a8b9c0d1", "5f1a2b3c4d5e6f7a8b9c0d1e2"],
)
def test_a_prolific_study_refuses_a_made_up_id(chat_study, pid):
    assert chat_study.recruitment == Recruitment.PROLIFIC  # the default of a new study
    reply = start_from(chat_study.slug, pid=pid)
    assert reply.status == 400
    assert reply.error["code"] == "invalid" and reply.error["field"] == "prolific_pid"
    assert "valid Prolific ID" in reply.error["message"]
    assert not Participant.objects.filter(study=chat_study).exists()


def test_a_prolific_study_takes_a_prolific_id(chat_study):
    assert start_from(chat_study.slug, pid="5f1a2b3c4d5e6f7a8b9c0d1e").status == 201


def test_a_study_of_another_link_takes_any_well_formed_id(make_chat_study):
    study = make_chat_study(recruitment=Recruitment.LINK)
    assert start_from(study.slug, pid="PID-123").status == 201
    assert start_from(study.slug, pid="bad id!").status == 400
