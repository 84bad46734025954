"""A token grants no more than its user holds now: revoked, expired, its user deactivated ->
401 at the next request; its user removed from the study, or moved to a weaker role -> 404/403
at the next request; a read token never writes; the last use is recorded."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from annotations.qa.models import StudyMembership
from researcher_api.models import ApiToken
from researcher_api.tokens import revoke_token
from tests.factories import make_study
from tests.researcher_api.conftest import api, mint

pytestmark = pytest.mark.django_db


@pytest.fixture
def researcher_token(personas, sides):
    value = mint(personas["researcher"], [sides["own"].study], "write")
    client = api(value)
    assert client.get("/api/v1/studies/demo/").status_code == 200
    return value, client


def test_revoked_token_is_refused_at_once(researcher_token, personas):
    value, client = researcher_token
    revoke_token(ApiToken.objects.get(), actor=personas["researcher"])
    response = client.get("/api/v1/studies/demo/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthenticated"


def test_expired_token_is_refused(researcher_token):
    value, client = researcher_token
    ApiToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert client.get("/api/v1/studies/demo/").status_code == 401


def test_deactivated_user_is_refused(researcher_token, personas):
    value, client = researcher_token
    personas["researcher"].is_active = False
    personas["researcher"].save()
    assert client.get("/api/v1/studies/demo/").status_code == 401


def test_removed_from_the_study_loses_it_at_once(researcher_token, personas):
    """Their only membership gone, the user would be lab-wide in the admin: the token, issued
    while they were limited, does not widen with it."""
    value, client = researcher_token
    StudyMembership.objects.filter(user=personas["researcher"]).delete()
    assert client.get("/api/v1/studies/demo/").status_code == 404
    assert client.get("/api/v1/studies/other-study/").status_code == 404
    assert client.get("/api/v1/studies/").status_code == 403  # a list: nowhere to see it


def test_removed_from_one_of_two_studies(personas, sides):
    second = make_study(slug="second")
    researcher = personas["researcher"]
    StudyMembership.objects.create(user=researcher, study=second, role="researcher")
    client = api(mint(researcher, [sides["own"].study, second], "write"))
    StudyMembership.objects.filter(user=researcher, study=sides["own"].study).delete()
    assert client.get("/api/v1/studies/demo/").status_code == 404
    assert client.get(f"/api/v1/releases/{sides['own'].release.pk}/").status_code == 404
    assert client.get("/api/v1/studies/second/").status_code == 200


def test_demoted_to_viewer_cannot_write(researcher_token, personas):
    value, client = researcher_token
    StudyMembership.objects.filter(user=personas["researcher"]).update(role="viewer")
    response = client.post("/api/v1/studies/demo/pause/")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"


def test_read_token_cannot_write(personas, sides):
    client = api(mint(personas["researcher"], [sides["own"].study], "read"))
    response = client.post("/api/v1/studies/demo/pause/")
    assert response.status_code == 403
    assert "read-only" in response.json()["error"]["message"]


def test_last_use_is_recorded(researcher_token):
    token = ApiToken.objects.get()
    assert token.last_used_at is not None
    assert timezone.now() - token.last_used_at < timedelta(minutes=1)


def test_a_token_is_not_a_session(personas, sides, client):
    """The token is the only credential of /api/v1/: a signed-in admin session is not."""
    client.force_login(personas["researcher"])
    assert client.get("/api/v1/studies/").status_code == 401
