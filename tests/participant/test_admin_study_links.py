"""Running a study in the admin: the recruitment link carries Prolific's placeholders, and the
preview link opens the study as a test participant whose data is never released. Both point
at the participant app itself (/s/<slug>/); the old /study/<slug>/ only redirects there, for
links handed out before (tests/participant_web/test_app_page.py)."""

from urllib.parse import urlsplit

import pytest
from django.urls import resolve

from annotations.models import AuditEntry, Participant
from annotations.participant_web import views as participant_web
from annotations.services.study_links import participant_app_path, recruitment_link
from tests.participant.client import DjangoTransport, ParticipantClient

pytestmark = pytest.mark.django_db


def test_the_study_page_shows_the_recruitment_link(researcher_client, chat_study):
    page = researcher_client.get(f"/admin/annotations/study/{chat_study.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    expected = (
        f"http://testserver/s/{chat_study.slug}/?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}"
        "&amp;STUDY_ID={{%STUDY_ID%}}&amp;SESSION_ID={{%SESSION_ID%}}"
    )
    assert expected in html
    assert f"/study/{chat_study.slug}/" not in html
    assert f'formaction="/admin/annotations/study/{chat_study.pk}/preview/"' in html
    assert 'formmethod="post"' in html  # it starts a participant: never by a GET


def test_a_get_starts_no_preview(researcher_client, chat_study):
    """A link or an image on another site can make a browser GET the address: nothing starts."""
    response = researcher_client.get(f"/admin/annotations/study/{chat_study.pk}/preview/")
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert not Participant.objects.exists()


def test_new_links_open_the_participant_app_without_a_redirect(chat_study):
    link = recruitment_link(chat_study, "https://attune.example.org/")
    assert link.startswith(f"https://attune.example.org/s/{chat_study.slug}/?PROLIFIC_PID=")
    for path in (urlsplit(link).path, participant_app_path(chat_study)):
        match = resolve(path)
        assert match.func is participant_web.participant_app, path
        assert match.kwargs == {"slug": chat_study.slug}


def test_the_preview_link_starts_a_preview_participant(researcher_client, researcher, chat_study):
    response = researcher_client.post(f"/admin/annotations/study/{chat_study.pk}/preview/")
    assert response.status_code == 302
    path, token = response["Location"].split("#token=")
    assert path == f"/s/{chat_study.slug}/"
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
    response = client.post(f"/admin/annotations/study/{chat_study.pk}/preview/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert not Participant.objects.exists()
