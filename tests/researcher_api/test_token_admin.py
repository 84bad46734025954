"""Tokens in the admin: a user issues tokens for themselves only, for studies they have a role
in; lists and revokes only their own."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from researcher_api.models import ApiToken
from researcher_api.tokens import TokenError, issue_token, revoke_token
from tests.researcher_api.conftest import mint

pytestmark = pytest.mark.django_db


def test_no_token_for_a_study_without_a_role(personas, sides):
    with pytest.raises(PermissionDenied):
        mint(personas["researcher"], [sides["other"].study])


def test_no_token_past_a_year(personas, sides):
    with pytest.raises(TokenError):
        issue_token(
            user=personas["researcher"],
            name="x",
            studies=[sides["own"].study],
            expires_at=timezone.now() + timedelta(days=400),
        )


def test_the_add_form_offers_only_the_users_studies(personas, sides, client):
    client.force_login(personas["viewer"])
    page = client.get("/admin/researcher_api/apitoken/add/")
    assert page.status_code == 200
    offered = page.context["adminform"].form.fields["studies"].queryset
    assert {study.slug for study in offered} == {"demo"}


def test_each_user_sees_and_revokes_only_their_own(personas, sides, client):
    mint(personas["researcher"], [sides["own"].study])
    mint(personas["viewer"], [sides["own"].study])
    mine = ApiToken.objects.get(user=personas["viewer"])
    theirs = ApiToken.objects.get(user=personas["researcher"])
    client.force_login(personas["viewer"])
    listed = client.get("/admin/researcher_api/apitoken/")
    assert mine.prefix in listed.text and theirs.prefix not in listed.text
    with pytest.raises(PermissionDenied):
        revoke_token(theirs, actor=personas["viewer"])
    client.post(
        "/admin/researcher_api/apitoken/",
        {"action": "revoke_selected", "_selected_action": [mine.pk, theirs.pk]},
    )
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.revoked_at is not None and theirs.revoked_at is None
