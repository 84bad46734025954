"""Study writes through a token go through the admin's setup services, audited: a study
created from the demo template by a researcher limited to their studies becomes theirs (a
membership, and the token's), a copy takes the setup and never the data, pause and resume
move between recruiting and paused only."""

from __future__ import annotations

import pytest

from annotations.models import AuditEntry, Study
from annotations.qa.models import StudyMembership
from researcher_api.models import ApiToken
from tests.researcher_api.conftest import api, mint

pytestmark = pytest.mark.django_db


@pytest.fixture
def writer(personas, sides):
    return api(mint(personas["researcher"], [sides["own"].study], "write"))


def test_a_study_from_the_template_is_the_creators(writer, personas):
    response = writer.post(
        "/api/v1/studies/",
        {"slug": "pilot", "title": "Pilot", "template": "demo"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    study = Study.objects.get(slug="pilot")
    demo = Study.objects.get(slug="demo")
    assert study.status == "draft" and study.topics == demo.topics
    assert set(study.model_pool.all()) == set(demo.model_pool.all())
    assert StudyMembership.objects.filter(
        user=personas["researcher"], study=study, role="researcher"
    ).exists()
    assert study in ApiToken.objects.get().studies.all()
    entry = AuditEntry.objects.get(action="annotations.study.create", target_id=str(study.pk))
    assert entry.actor == personas["researcher"]
    assert writer.get("/api/v1/studies/pilot/").status_code == 200


def test_a_copy_takes_the_setup_not_the_data(writer, sides):
    response = writer.post(
        "/api/v1/studies/",
        {"slug": "again", "title": "Again", "copy_of": "demo"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["participants"] == 0 and response.json()["conversations"] == 0


def test_template_and_copy_are_one_or_the_other(writer):
    both = writer.post(
        "/api/v1/studies/",
        {"slug": "x", "title": "X", "template": "demo", "copy_of": "demo"},
        content_type="application/json",
    )
    unknown = writer.post(
        "/api/v1/studies/",
        {"slug": "y", "title": "Y", "template": "nope"},
        content_type="application/json",
    )
    assert both.status_code == unknown.status_code == 400
    assert unknown.json()["error"]["field"] == "template"


def test_pause_and_resume(writer, personas):
    assert writer.post("/api/v1/studies/demo/pause/").json()["status"] == "paused"
    again = writer.post("/api/v1/studies/demo/pause/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "wrong_status"
    assert writer.post("/api/v1/studies/demo/resume/").json()["status"] == "recruiting"
    changes = AuditEntry.objects.filter(
        action="annotations.study.update", actor=personas["researcher"]
    )
    assert [e.data["changes"]["status"]["after"] for e in changes.order_by("pk")] == [
        "paused",
        "recruiting",
    ]
