"""Running a study in the admin: the recruitment link carries Prolific's placeholders, and the
preview link opens the study as a test participant whose data is never released."""

import pytest

from annotations.models import AuditEntry, Participant
from tests.participant.client import DjangoTransport, ParticipantClient

pytestmark = pytest.mark.django_db


def test_the_study_page_shows_the_recruitment_link(researcher_client, chat_study):
    page = researcher_client.get(f"/admin/annotations/study/{chat_study.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    expected = (f"http://testserver/study/{chat_study.slug}/?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}"
                "&amp;STUDY_ID={{%STUDY_ID%}}&amp;SESSION_ID={{%SESSION_ID%}}")  # fmt: skip
    assert expected in html
    assert f"/admin/annotations/study/{chat_study.pk}/preview/" in html


def test_the_preview_link_starts_a_preview_participant(researcher_client, researcher, chat_study):
    response = researcher_client.get(f"/admin/annotations/study/{chat_study.pk}/preview/")
    assert response.status_code == 302
    path, token = response["Location"].split("#token=")
    assert path == f"/study/{chat_study.slug}/"
    participant = Participant.objects.get(study=chat_study)
    assert participant.is_preview and participant.prolific_pid == ""
    entry = AuditEntry.objects.get(action="annotations.participant.preview")
    assert entry.actor == researcher
    client = ParticipantClient(DjangoTransport(), chat_study.slug)
    client.token = token
    session = client.session()
    assert session["preview"] is True and session["step"] == "consent"


def test_outsiders_cannot_open_a_preview(client, outsider, chat_study):
    client.force_login(outsider)
    response = client.get(f"/admin/annotations/study/{chat_study.pk}/preview/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert not Participant.objects.exists()
