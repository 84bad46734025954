"""A study may answer a returning link that proves nothing (its PROLIFIC_PID already started,
without that browser's token or the SESSION_ID it started with) with a fresh session: a new
participant record of the same PROLIFIC_PID, linked to the first, that shows none of the
earlier messages. The earlier participant goes on undisturbed, each session resumes with its
own proof, and researchers choose the policy in the study's admin page (audited)."""

import pytest
from django.forms.models import model_to_dict
from django.urls import reverse

from annotations.models import AuditEntry, Participant, ReturningLinkPolicy
from annotations.services.participant_sessions import participant_for_token
from annotations.services.setup import setup_history

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh_study(chat_study):
    chat_study.returning_link_policy = ReturningLinkPolicy.FRESH
    chat_study.save()
    return chat_study


@pytest.fixture
def started(fresh_study, participant_client, answered_turn):
    """A participant well into the chat, from a link with SESSION_ID 'SESSION1'."""
    first = participant_client()
    first.onboard()
    answered_turn(first, "my secret worry", reply="a reply only they saw")
    return first


def test_an_unproven_link_starts_a_fresh_session_showing_nothing_earlier(
    started, participant_client
):
    stranger = participant_client(pid=started.pid)
    reply = stranger.start(session_id="SESSION9")
    assert reply.status == 201 and reply.body["session"]["step"] == "consent"
    assert reply.body["session"]["conversation"] is None and reply.body["session"]["chat"] is None
    everything = str(reply.body) + str(stranger.session()) + str(stranger.get("drafts").body)
    assert "my secret worry" not in everything and "a reply only they saw" not in everything
    assert stranger.get("turns/1").status == 404

    original = participant_for_token(started.token)
    fresh = participant_for_token(stranger.token)
    assert fresh.pk != original.pk and fresh.restart_of_id == original.pk
    assert (fresh.prolific_pid, fresh.prolific_session_id) == (started.pid, "SESSION9")
    assert "my secret worry" in str(started.session())  # the first goes on undisturbed
    entry = AuditEntry.objects.get(action="annotations.participant.restart")
    assert entry.target_id == str(fresh.pk) and entry.data["restart_of"] == original.pseudonym


def test_each_session_resumes_with_its_own_proof(started, participant_client):
    stranger = participant_client(pid=started.pid)
    assert stranger.start(session_id="SESSION9").status == 201
    fresh = participant_for_token(stranger.token)

    again = participant_client(pid=started.pid)
    assert again.start(session_id="SESSION9").status == 200  # the fresh session's own link
    assert participant_for_token(again.token) == fresh
    assert again.start(session_id="SESSION1").status == 200  # the first one's link
    assert "my secret worry" in str(again.session())

    body = {"prolific_pid": started.pid, "study_id": "STUDY1", "session_id": "OTHER"}
    path = f"/api/study/{started.slug}/start"
    own_token = stranger.transport.request("POST", path, body, stranger.headers)
    assert own_token.status == 200 and participant_for_token(own_token.body["token"]) == fresh
    assert Participant.objects.filter(prolific_pid=started.pid).count() == 2


def test_a_link_without_a_session_id_starts_another_fresh_session(started, participant_client):
    for _ in range(2):
        assert participant_client(pid=started.pid).start(session_id="").status == 201
    first = participant_for_token(started.token)
    assert set(first.restarts.values_list("restart_of", flat=True)) == {first.pk}
    assert first.restarts.count() == 2  # each links to the first record, never a chain


def test_a_fresh_session_takes_a_place_like_a_newcomer(started, fresh_study, participant_client):
    fresh_study.status = "paused"
    fresh_study.save()
    reply = participant_client(pid=started.pid).start(session_id="SESSION9")
    assert reply.status == 403 and reply.error["code"] == "study_paused"
    assert participant_client(pid=started.pid).start().status == 200  # the first may finish


def test_the_policy_is_set_in_the_admin_through_the_setup_write_path(researcher_client, chat_study):
    data = {k: v for k, v in model_to_dict(chat_study).items() if v is not None}
    data["topics"] = '[{"category": "work", "subtopics": []}]'
    data["languages"], data["translations"] = '["en"]', "{}"
    data["model_pool"] = [e.pk for e in chat_study.model_pool.all()]
    data["returning_link_policy"] = ReturningLinkPolicy.FRESH
    url = reverse("admin:annotations_study_change", args=[chat_study.pk])
    page = researcher_client.get(url).text
    assert 'value="fresh"' in page and "Start a fresh session" in page
    response = researcher_client.post(url, data)
    assert response.status_code == 302, response.text[:2000]
    chat_study.refresh_from_db()
    assert chat_study.returning_link_policy == ReturningLinkPolicy.FRESH
    (entry, *_) = setup_history(chat_study)
    assert entry.data["changes"]["returning_link_policy"] == {"before": "block", "after": "fresh"}
